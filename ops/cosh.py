"""Cosh."""
import numpy as np

from refinfer.registry import register

from ._common import FLOATS
from ._math import unary_float


@register("Cosh", family="elementwise", dtypes=FLOATS)
def cosh(input):
    """Elementwise hyperbolic cosine.

    Argument: input. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(np.cosh, input)
