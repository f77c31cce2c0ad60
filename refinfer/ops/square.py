"""Square."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_SQUARE
from ._ref.common import NUMBERS, as_result


@register("Square", family="elementwise", dtypes=NUMBERS, recipe=unary(OP_SQUARE))
def square(input):
    """Elementwise square: y = x * x, same dtype (integers wrap)."""
    return as_result(np.square(input))
