"""ReLU6."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS, as_result


@register("ReLU6", family="activation", dtypes=NUMBERS)
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


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("ReLU6", "numba")
def relu6_numba(x):
    """ReLU6 of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_RELU6, relu6, x)
