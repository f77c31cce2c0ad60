"""IsInf."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, as_result


@register("IsInf", family="comparison", dtypes=ALL,
          kernels={"numba": logic.float_test(np.isinf)})
def is_inf(input):
    """Elementwise test for +inf or -inf (bool result).

    Argument: input; NaN, integers and bools are not infinite.
    """
    if input.dtype.kind != "f":
        return np.zeros(input.shape, dtype=bool)
    return as_result(np.isinf(input))
