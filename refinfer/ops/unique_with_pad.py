"""UniqueWithPad."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.indexing import unique_in_order


@register("UniqueWithPad", family="shape", dtypes=NUMBERS, no_kernel="native")
def unique_with_pad(x, pad_num):
    """Unique's distinct values padded to x's length, and each element's index.

    Returns (y, idx): y the distinct values in order of first appearance
    followed by pad_num up to len(x); idx the position in y of each element
    of x (x = y[idx]). Arguments: x (1-D); pad_num (a scalar of x's
    dtype). idx has x's dtype for int32/int64 x, int32 otherwise; the
    output shapes are static, unlike Unique's.
    """
    if x.ndim != 1:
        raise ValueError(f"UniqueWithPad: x must be 1-D, got shape {x.shape}")
    values, index = unique_in_order(x)
    padded = np.full(x.shape, np.asarray(pad_num).astype(x.dtype), x.dtype)
    padded[:values.size] = values
    index_dtype = x.dtype if x.dtype.name in ("int32", "int64") else np.int32
    return padded, index.astype(index_dtype)
