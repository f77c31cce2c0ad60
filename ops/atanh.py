"""Atanh."""
import numpy as np

from refinfer.registry import register

from ._common import FLOATS
from ._math import unary_float


@register("Atanh", family="elementwise", dtypes=FLOATS)
def atanh(input):
    """Elementwise inverse hyperbolic tangent.

    Argument: input. atanh(+-1) = +-inf, |x| > 1 gives NaN. Floats keep their
    dtype (float16 is computed in float32); integer and bool inputs give
    float32.
    """
    return unary_float(np.arctanh, input)
