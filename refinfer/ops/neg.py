"""Neg."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_NEG
from ._ref.common import NUMBERS, as_result


@register("Neg", family="elementwise", dtypes=NUMBERS, recipe=unary(OP_NEG))
def neg(input):
    """Elementwise negation: y = -x, same dtype.

    Integers wrap (int8 -128 -> -128, uint8 1 -> 255); bool is rejected.
    """
    return as_result(np.negative(input))
