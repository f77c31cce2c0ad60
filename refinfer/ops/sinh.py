"""Sinh."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_SINH
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Sinh", family="elementwise", dtypes=FLOATS, recipe=unary(OP_SINH))
def sinh(input):
    """Elementwise hyperbolic sine.

    Argument: input. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(np.sinh, input)
