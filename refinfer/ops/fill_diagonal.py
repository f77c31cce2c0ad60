"""FillDiagonal."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("FillDiagonal", family="shape", dtypes=ALL,
          convert={"fill_value": args.scalar, "wrap": args.boolean},
          no_kernel="copy")
def fill_diagonal(input_x, fill_value, wrap=False):
    """Copy of input_x with its main diagonal set to fill_value.

    y[i, i, ..., i] = fill_value for i < min(shape). Arguments: input_x
    (rank >= 2; a rank above 2 needs equal dims); fill_value (float
    attribute, cast to input_x's dtype); wrap=False: for a tall matrix,
    True restarts the diagonal every ncols + 1 rows (numpy.fill_diagonal).
    """
    if input_x.ndim < 2 or (input_x.ndim > 2 and len(set(input_x.shape)) != 1):
        raise ValueError(f"FillDiagonal: input_x must be 2-D or have equal dims, "
                         f"got shape {input_x.shape}")
    out = input_x.copy()
    integer = out.dtype.kind in "iu" and np.iinfo(out.dtype)
    if integer and not integer.min <= fill_value <= integer.max:   # (NaN too)
        raise ValueError(f"FillDiagonal: fill_value {fill_value} does not fit "
                         f"input_x's {out.dtype}")
    np.fill_diagonal(out, fill_value, wrap=bool(wrap))
    return out
