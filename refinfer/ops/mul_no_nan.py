"""MulNoNan."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS, as_result, promote


@register("MulNoNan", family="elementwise", dtypes=NUMBERS, no_kernel="vectorised")
def mul_no_nan(x, y):
    """Elementwise x * y, but 0 where y is 0, with broadcasting.

    z = 0 where y == 0 (also for x = inf or NaN), else x * y. Arguments: x,
    y (tensors or Python scalars, promoted as for Mul). Float and integer
    dtypes (integers wrap).
    """
    a, b = promote(x, y)
    with np.errstate(over="ignore", invalid="ignore"):
        product = np.multiply(a, b)
    return as_result(np.where(b == 0, np.zeros_like(product), product))
