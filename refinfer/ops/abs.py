"""Abs."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_ABS
from ._ref.common import ALL, as_result


@register("Abs", family="elementwise", dtypes=ALL, recipe=unary(OP_ABS))
def abs(input):
    """Elementwise absolute value, same dtype (int8 -128 stays -128)."""
    return as_result(np.abs(input))
