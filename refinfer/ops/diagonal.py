"""Diagonal and DiagonalView."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL

CONVERT = {"offset": args.integer, "dim1": args.integer, "dim2": args.integer}


@register("Diagonal", "DiagonalView", family="shape", dtypes=ALL, no_kernel="copy",
          convert=CONVERT)
def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonals of the planes of axes dim1, dim2.

    y[..., i] = input[..., i, i + offset, ...] (offset < 0: below the main
    diagonal), the two axes removed and the diagonal appended last.
    Arguments: input (rank >= 2); offset=0, dim1=0, dim2=1 (distinct axes,
    negative allowed). DiagonalView is MindSpore's view form; the values
    are the same. All dtypes.
    """
    if input.ndim < 2 or not all(-input.ndim <= d < input.ndim for d in (dim1, dim2)) \
            or dim1 % input.ndim == dim2 % input.ndim:
        raise ValueError(f"Diagonal: dim1 {dim1} and dim2 {dim2} must be two distinct "
                         f"axes of input, got shape {list(input.shape)}")
    # an offset past the plane leaves every diagonal empty (NumPy takes a C int)
    offset = min(max(offset, -input.shape[dim1]), input.shape[dim2])
    return np.diagonal(input, offset, dim1, dim2).copy()
