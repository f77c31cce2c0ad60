"""ReLU6."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_RELU6
from ._ref.common import NUMBERS, as_result


@register("ReLU6", family="activation", dtypes=NUMBERS, recipe=unary(OP_RELU6))
def relu6(x):
    """ReLU capped at 6: y = min(max(x, 0), 6), elementwise.

    Argument: x. Output has x's dtype and shape. As MindSpore 2.7.1's CPU
    kernel (verified): ReLU6(NaN) = 0.
    MindSpore's CPU kernel accepts float16/float32 only; other number types
    are computed the same way here.
    """
    zero, six = x.dtype.type(0), x.dtype.type(6)
    y = np.minimum(np.maximum(x, zero), six)
    if x.dtype.kind == "f":
        y = np.where(np.isnan(x), zero, y)
    return as_result(y)
