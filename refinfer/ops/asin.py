"""Asin."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_ASIN
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Asin", family="elementwise", dtypes=FLOATS, recipe=unary(OP_ASIN))
def asin(input):
    """Elementwise inverse sine, in radians.

    Argument: input. |x| > 1 gives NaN. Floats keep their dtype (float16 is
    computed in float32); integer and bool inputs give float32.
    """
    return unary_float(np.arcsin, input)
