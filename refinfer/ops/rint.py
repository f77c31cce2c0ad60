"""Rint."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_RINT
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Rint", family="elementwise", dtypes=FLOATS, recipe=unary(OP_RINT))
def rint(input_x):
    """Elementwise rounding to the nearest integer, halves to even.

    Argument: input_x (float16, float32 or float64). -1.5 -> -2, 0.5 -> 0,
    2.5 -> 2; NaN and +-inf are kept. Output has input_x's dtype (float16 is
    computed in float32).
    """
    return unary_float(np.rint, input_x)
