"""Abs."""
import numpy as np

from refinfer.registry import register

from ._common import ALL, as_result


@register("Abs", family="elementwise", dtypes=ALL)
def abs(input):
    """Elementwise absolute value, same dtype (int8 -128 stays -128)."""
    return as_result(np.abs(input))
