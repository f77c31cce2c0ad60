"""Cos."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_COS
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Cos", family="elementwise", dtypes=FLOATS, recipe=unary(OP_COS))
def cos(input):
    """Elementwise cosine (radians).

    Argument: input. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(np.cos, input)
