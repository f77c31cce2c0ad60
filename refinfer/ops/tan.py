"""Tan."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_TAN
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Tan", family="elementwise", dtypes=FLOATS, recipe=unary(OP_TAN))
def tan(input):
    """Elementwise tangent (radians).

    Argument: input. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(np.tan, input)
