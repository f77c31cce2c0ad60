"""GreaterEqual."""
import numpy as np

from refinfer.registry import register

from ._common import ALL, as_result, promote


@register("GreaterEqual", family="comparison", dtypes=ALL)
def greater_equal(input, other):
    """Elementwise comparison with broadcasting: y = input >= other (bool).

    Arguments: input, other (tensors or Python scalars), promoted as for
    arithmetic first (see Greater). Comparisons with NaN are False.
    """
    a, b = promote(input, other)
    return as_result(np.greater_equal(a, b))
