"""Asin."""
import numpy as np

from refinfer.registry import register

from ._common import FLOATS
from ._math import unary_float


@register("Asin", family="elementwise", dtypes=FLOATS)
def asin(input):
    """Elementwise inverse sine, in radians.

    Argument: input. |x| > 1 gives NaN. Floats keep their dtype (float16 is
    computed in float32); integer and bool inputs give float32.
    """
    return unary_float(np.arcsin, input)
