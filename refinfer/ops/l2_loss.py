"""L2Loss."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS, as_result, compute_dtype


@register("L2Loss", family="reduction", dtypes=FLOATS, no_kernel="native")
def l2_loss(input):
    """Half the sum of squares: y = sum(input ** 2) / 2, a 0-d tensor.

    Argument: input (float; float16 summed in float32). Output: 0-d, input's
    dtype.
    """
    work = input.astype(compute_dtype(input.dtype), copy=False)
    return as_result(np.square(work).sum() / 2, input.dtype)
