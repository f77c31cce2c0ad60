"""MatrixBandPart."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("MatrixBandPart", family="shape", dtypes=ALL,
          convert={"lower": args.integer, "upper": args.integer}, no_kernel="copy")
def matrix_band_part(x, lower, upper):
    """The band of the last two axes around the diagonal; the rest is zero.

    y[..., i, j] = x[..., i, j] if (lower < 0 or i - j <= lower) and
    (upper < 0 or j - i <= upper), else 0: lower sub-diagonals and upper
    super-diagonals are kept, a negative count keeps that whole triangle.
    Arguments: x (rank >= 2); lower, upper (ints or 0-d int tensors). All
    dtypes.
    """
    if x.ndim < 2:
        raise ValueError(f"MatrixBandPart: x must have rank >= 2, got shape {x.shape}")
    rows, cols = x.shape[-2:]
    below = np.arange(rows)[:, None] - np.arange(cols)[None, :]
    keep = ((lower < 0) | (below <= lower)) & ((upper < 0) | (-below <= upper))
    return np.where(keep, x, np.zeros((), x.dtype))
