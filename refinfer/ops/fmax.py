"""Fmax."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS, as_result, promote


@register("Fmax", family="elementwise", dtypes=NUMBERS, no_kernel="native")
def fmax(x1, x2):
    """Elementwise maximum ignoring NaN, with broadcasting.

    y = max(x1, x2), the other value where one of them is NaN (NaN only
    where both are). Arguments: x1, x2 (tensors or Python scalars, promoted
    as for Maximum: int32 with float32 gives float32). Compare Maximum,
    which propagates NaN.
    """
    a, b = promote(x1, x2)
    return as_result(np.fmax(a, b))
