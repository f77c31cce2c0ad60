"""Cosh."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_COSH
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Cosh", family="elementwise", dtypes=FLOATS, recipe=unary(OP_COSH))
def cosh(input):
    """Elementwise hyperbolic cosine.

    Argument: input. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(np.cosh, input)
