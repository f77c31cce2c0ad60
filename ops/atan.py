"""Atan."""
import numpy as np

from refinfer.registry import register

from ._common import FLOATS
from ._math import unary_float


@register("Atan", family="elementwise", dtypes=FLOATS)
def atan(input):
    """Elementwise inverse tangent, in radians.

    Argument: input. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(np.arctan, input)
