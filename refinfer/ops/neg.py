"""Neg."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_NEG
from ._ref.common import NUMBERS, as_result


@register("Neg", family="elementwise", dtypes=NUMBERS, recipe=unary(OP_NEG))
def neg(input):
    """Elementwise negation: y = -x, same dtype.

    Integers wrap (int8 -128 -> -128, uint8 1 -> 255); bool is rejected,
    as MindSpore's Neg takes numbers only.
    """
    if np.asarray(input).dtype == np.bool_:
        raise TypeError("Neg: input is bool; Neg takes numbers (LogicalNot "
                        "negates a bool tensor)")
    return as_result(np.negative(input))
