"""Softplus."""
import numpy as np

from refinfer.registry import register

from ._common import FLOATS
from ._math import unary_float


@register("Softplus", family="activation", dtypes=FLOATS)
def softplus(input):
    """Softplus: y = ln(1 + e ** x), elementwise, without overflow.

    Argument: input; float16 is computed in float32. ops.softplus exports it
    inside Select(x * beta > threshold, x, Softplus(beta x) / beta).
    """
    return unary_float(lambda x: np.logaddexp(0, x), input)
