"""Sinh."""
import numpy as np

from refinfer.registry import register

from ._common import FLOATS
from ._math import unary_float


@register("Sinh", family="elementwise", dtypes=FLOATS)
def sinh(input):
    """Elementwise hyperbolic sine.

    Argument: input. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(np.sinh, input)
