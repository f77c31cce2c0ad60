"""NextAfter."""
import numpy as np

from refinfer.registry import register

from ._ref.common import as_result, promote


@register("NextAfter", family="elementwise", dtypes=("float32", "float64"),
          no_kernel="native")
def next_after(input, other):
    """The next representable float after input toward other, elementwise.

    y = nextafter(input, other): input itself where they are equal, NaN if
    either is NaN; 0 toward -1 gives the smallest negative subnormal
    (MindSpore 2.7.1 CPU flushes float32 subnormals: -0.0 there).
    Arguments: input, other (float32 or float64 tensors of one dtype).
    """
    a, b = promote(input, other)
    if a.dtype.kind != "f" or a.dtype == np.float16:
        raise TypeError(f"NextAfter: input must be float32 or float64, got {a.dtype}")
    return as_result(np.nextafter(a, b))
