"""SiLU."""
from refinfer.registry import register

from ._common import FLOATS
from ._math import logistic, unary_float


@register("SiLU", family="activation", dtypes=FLOATS)
def silu(input):
    """Sigmoid linear unit (swish): y = x * sigmoid(x), elementwise.

    Argument: input; float16 is computed in float32.
    """
    return unary_float(lambda x: x * logistic(x), input)
