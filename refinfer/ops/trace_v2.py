"""TraceV2."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS, optional
from ._ref.search import one_axis


@register("TraceV2", family="reduction", dtypes=NUMBERS, no_kernel="native",
          convert={"offset": args.integer, "axis1": args.integer,
                   "axis2": args.integer, "dtype": optional(args.dtype)})
def trace_v2(input, offset=0, axis1=1, axis2=0, dtype=None):
    """Sums of the diagonals of the planes of axis1, axis2.

    y[...] = sum_i input[..., i, i + offset, ...], the two axes removed.
    Arguments: input (rank >= 2); offset=0; axis1=1, axis2=0 (MindSpore's
    defaults); dtype=None: integer inputs sum to int64 (as MindSpore's CPU
    kernel), floats keep their dtype.
    """
    first, second = (one_axis(axis1, input.ndim), one_axis(axis2, input.ndim)) \
        if input.ndim >= 2 else (0, 0)
    if first == second:
        raise ValueError(f"TraceV2: axis1 {axis1} and axis2 {axis2} must be two "
                         f"distinct axes of input, got shape {list(input.shape)}")
    # an offset past the plane leaves every diagonal empty (NumPy takes a C int)
    offset = min(max(offset, -input.shape[first]), input.shape[second])
    if dtype is None:
        dtype = np.int64 if input.dtype.kind in "iub" else input.dtype
    return np.asarray(np.trace(input, offset, first, second, dtype=dtype))
