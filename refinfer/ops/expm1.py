"""Expm1."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_EXPM1
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Expm1", family="elementwise", dtypes=FLOATS, recipe=unary(OP_EXPM1))
def expm1(input):
    """Elementwise y = e ** x - 1, accurate for small x.

    Argument: input. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(np.expm1, input)
