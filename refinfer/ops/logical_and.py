"""LogicalAnd."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, as_result


@register("LogicalAnd", family="comparison", dtypes=ALL,
          kernels={"numba": logic.one_pass(np.logical_and)})
def logical_and(x, y):
    """Elementwise logical and with broadcasting (bool result).

    Arguments: x, y (tensors of any dtype or Python scalars; nonzero, NaN
    included, is True).
    """
    return as_result(np.logical_and(x, y))
