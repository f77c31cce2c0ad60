"""Acosh."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_ACOSH
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Acosh", family="elementwise", dtypes=FLOATS, recipe=unary(OP_ACOSH))
def acosh(input):
    """Elementwise inverse hyperbolic cosine.

    Argument: input. x < 1 gives NaN. Floats keep their dtype (float16 is
    computed in float32); integer and bool inputs give float32.
    """
    return unary_float(np.arccosh, input)
