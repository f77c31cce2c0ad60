"""ReLU."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS, as_result


@register("ReLU", family="activation", dtypes=NUMBERS)
def relu(input):
    """Rectified linear unit: y = max(x, 0), elementwise.

    Arguments: input (tensor).
    Output has the dtype and shape of ``input``.
    """
    return as_result(np.maximum(input, input.dtype.type(0)))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("ReLU", "numba")
def relu_numba(input):
    """ReLU of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_RELU, relu, input)
