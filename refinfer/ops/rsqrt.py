"""Rsqrt."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import RSQRT
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Rsqrt", family="elementwise", dtypes=FLOATS, recipe=RSQRT)
def rsqrt(input):
    """Elementwise reciprocal square root: y = 1 / sqrt(x).

    Argument: input. rsqrt(0) = inf, negative inputs give NaN. Floats keep
    their dtype (float16 is computed in float32); integer and bool inputs
    give float32.
    """
    return unary_float(lambda x: 1 / np.sqrt(x), input)
