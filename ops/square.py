"""Square."""
import numpy as np

from refinfer.registry import register

from ._common import NUMBERS, as_result


@register("Square", family="elementwise", dtypes=NUMBERS)
def square(input):
    """Elementwise square: y = x * x, same dtype (integers wrap)."""
    return as_result(np.square(input))
