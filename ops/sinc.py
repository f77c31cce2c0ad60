"""Sinc."""
import numpy as np

from refinfer.registry import register

from ._common import ALL
from ._math import unary_float


@register("Sinc", family="elementwise", dtypes=ALL)
def sinc(input):
    """Normalised sinc: y = sin(pi x) / (pi x), with y(0) = 1.

    Argument: input. Floats keep their dtype (float16 is computed in
    float32); integer and bool inputs give float32.
    """
    return unary_float(np.sinc, input)
