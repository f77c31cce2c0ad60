"""Asinh."""
import numpy as np

from refinfer.registry import register

from ._common import FLOATS
from ._math import unary_float


@register("Asinh", family="elementwise", dtypes=FLOATS)
def asinh(input):
    """Elementwise inverse hyperbolic sine.

    Argument: input. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(np.arcsinh, input)
