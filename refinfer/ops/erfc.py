"""Erfc."""
import math

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_ERFC
from ._ref.common import FLOATS
from ._ref.math import scalar_math, unary_float


@register("Erfc", family="elementwise", dtypes=FLOATS, recipe=unary(OP_ERFC))
def erfc(input):
    """Elementwise complementary error function: y = 1 - erf(x).

    Argument: input. Computed in float64 with math.erfc (accurate for large x,
    where 1 - erf(x) underflows). Floats keep their dtype (float16 is
    computed in float32); integer and bool inputs give float32.
    """
    return unary_float(lambda x: scalar_math(math.erfc, x), input)
