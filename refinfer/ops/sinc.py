"""Sinc."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_SINC
from ._ref.common import ALL
from ._ref.math import unary_float


@register("Sinc", family="elementwise", dtypes=ALL, recipe=unary(OP_SINC))
def sinc(input):
    """Normalised sinc: y = sin(pi x) / (pi x), with y(0) = 1.

    Argument: input. Floats keep their dtype (float16 is computed in
    float32); integer and bool inputs give float32.
    """
    return unary_float(np.sinc, input)
