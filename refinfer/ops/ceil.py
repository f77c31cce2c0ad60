"""Ceil."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_CEIL
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Ceil", family="elementwise", dtypes=FLOATS, recipe=unary(OP_CEIL))
def ceil(input):
    """Elementwise ceiling: the smallest integer >= x.

    Argument: input. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(np.ceil, input)
