"""Exp2."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_EXP2
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Exp2", family="elementwise", dtypes=FLOATS, recipe=unary(OP_EXP2))
def exp2(input):
    """Elementwise base-2 exponential: y = 2 ** x.

    Argument: input. What mint.exp2 exports (ops.exp2 exports Pow(2, x)
    instead). MindSpore 2.7.1 has no CPU kernel for it. Floats keep their
    dtype (float16 is computed in float32); integer and bool inputs give
    float32.
    """
    return unary_float(np.exp2, input)
