"""Softplus."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_SOFTPLUS
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Softplus", family="activation", dtypes=FLOATS, recipe=unary(OP_SOFTPLUS))
def softplus(input):
    """Softplus: y = ln(1 + e ** x), elementwise, without overflow.

    Argument: input; float16 is computed in float32. ops.softplus exports it
    inside Select(x * beta > threshold, x, Softplus(beta x) / beta).
    """
    return unary_float(lambda x: np.logaddexp(0, x), input)
