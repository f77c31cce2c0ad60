"""ReLU6."""
import numpy as np

from refinfer.registry import register

from ._common import NUMBERS, as_result


@register("ReLU6", family="activation", dtypes=NUMBERS)
def relu6(x):
    """ReLU capped at 6: y = min(max(x, 0), 6), elementwise.

    Argument: x. Output has x's dtype and shape; NaN propagates.
    MindSpore's CPU kernel accepts float16/float32 only; other number types
    are computed the same way here.
    """
    zero, six = x.dtype.type(0), x.dtype.type(6)
    return as_result(np.minimum(np.maximum(x, zero), six))
