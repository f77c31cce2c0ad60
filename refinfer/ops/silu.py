"""SiLU."""
from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_SILU
from ._ref.common import FLOATS
from ._ref.math import logistic, unary_float


@register("SiLU", family="activation", dtypes=FLOATS, recipe=unary(OP_SILU))
def silu(input):
    """Sigmoid linear unit (swish): y = x * sigmoid(x), elementwise.

    Argument: input; float16 is computed in float32.
    """
    return unary_float(lambda x: x * logistic(x), input)
