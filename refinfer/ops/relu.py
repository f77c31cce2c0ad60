"""ReLU."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_RELU
from ._ref.common import NUMBERS, as_result


@register("ReLU", "ReLUV3", family="activation", dtypes=NUMBERS, recipe=unary(OP_RELU))
def relu(input):
    """Rectified linear unit: y = max(x, 0), elementwise.

    Arguments: input (tensor).
    Output has the dtype and shape of ``input``. ReLUV3 is the same op.
    """
    return as_result(np.maximum(input, input.dtype.type(0)))
