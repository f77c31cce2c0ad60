"""Trunc."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_TRUNC
from ._ref.common import NUMBERS, as_result


@register("Trunc", family="elementwise", dtypes=NUMBERS, recipe=unary(OP_TRUNC))
def trunc(input):
    """Elementwise rounding toward zero: the integer part of x.

    Argument: input; output has its dtype. Integers are returned unchanged.
    """
    if input.dtype.kind != "f":
        return input
    return as_result(np.trunc(input), input.dtype)
