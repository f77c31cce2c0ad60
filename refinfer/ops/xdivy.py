"""Xdivy."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS, as_result, promote


@register("Xdivy", family="elementwise", dtypes=FLOATS, no_kernel="vectorised")
def xdivy(x, y):
    """Elementwise x / y, but 0 where x is 0, with broadcasting.

    z = 0 where x == 0 (also for y = 0 or NaN), else x / y (IEEE: 1 / 0 =
    inf). Arguments: x, y (tensors or Python scalars, promoted as for Div).
    Float dtypes (complex too in MindSpore); MindSpore 2.7.1 CPU refuses
    integers.
    """
    a, b = promote(x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        quotient = np.true_divide(a, b)
    return as_result(np.where(a == 0, np.zeros_like(quotient), quotient))
