"""SquaredDifference."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import SQUARED_DIFFERENCE
from ._ref.common import NUMBERS, as_result, promote


@register("SquaredDifference", family="elementwise", dtypes=NUMBERS,
          recipe=SQUARED_DIFFERENCE)
def squared_difference(x, y):
    """Elementwise y = (x - y) ** 2, with broadcasting.

    Arguments: x, y (tensors or Python scalars, promoted as for Sub). The
    difference and its square are computed in the promoted dtype (integers
    wrap).
    """
    a, b = promote(x, y)
    with np.errstate(over="ignore"):
        return as_result(np.square(np.subtract(a, b)))
