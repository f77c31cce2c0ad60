"""LessEqual."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, as_result, promote


@register("LessEqual", family="comparison", dtypes=ALL,
          kernels={"numba": logic.comparison(np.less_equal)})
def less_equal(input, other):
    """Elementwise comparison with broadcasting: y = input <= other (bool).

    Arguments: input, other (tensors or Python scalars), promoted as for
    arithmetic first (see Greater). Comparisons with NaN are False.
    """
    a, b = promote(input, other)
    return as_result(np.less_equal(a, b))
