"""NotEqual."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, as_result, promote


@register("NotEqual", family="comparison", dtypes=ALL,
          kernels={"numba": logic.comparison(np.not_equal)})
def not_equal(input, other):
    """Elementwise comparison with broadcasting: y = input != other (bool).

    Arguments: input, other (tensors or Python scalars), promoted as for
    arithmetic first (see Equal). NaN != anything is True.
    """
    a, b = promote(input, other)
    return as_result(np.not_equal(a, b))
