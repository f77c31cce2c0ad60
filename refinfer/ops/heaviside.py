"""Heaviside."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS, as_result, promote


@register("Heaviside", family="elementwise", dtypes=NUMBERS, no_kernel="native")
def heaviside(input, values):
    """The Heaviside step, elementwise with broadcasting.

    y = 0 where input < 0, values where input == 0, 1 where input > 0 (NaN
    stays NaN). Arguments (classic PRIMITIVE): input, values (one dtype).
    """
    a, b = promote(input, values)
    return as_result(np.heaviside(a, b).astype(a.dtype))
