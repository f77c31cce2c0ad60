"""GeLU."""
from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_GELU
from ._ref.common import FLOATS
from ._ref.math import gelu_tanh, unary_float


@register("GeLU", family="activation", dtypes=FLOATS, recipe=unary(OP_GELU))
def gelu(input):
    """Gaussian error linear unit, tanh approximation, elementwise.

    y = 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x ** 3))). What
    ops.gelu(x, approximate="tanh") exports (the exact form exports Erf,
    Div, Add, Mul). Argument: input; float16 is computed in float32.
    """
    return unary_float(gelu_tanh, input)
