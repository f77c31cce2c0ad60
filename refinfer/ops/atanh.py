"""Atanh."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_ATANH
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Atanh", family="elementwise", dtypes=FLOATS, recipe=unary(OP_ATANH))
def atanh(input):
    """Elementwise inverse hyperbolic tangent.

    Argument: input. atanh(+-1) = +-inf, |x| > 1 gives NaN. Floats keep their
    dtype (float16 is computed in float32); integer and bool inputs give
    float32.
    """
    return unary_float(np.arctanh, input)
