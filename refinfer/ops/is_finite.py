"""IsFinite."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, as_result


@register("IsFinite", family="comparison", dtypes=ALL,
          kernels={"numba": logic.float_test(np.isfinite)})
def is_finite(input):
    """Elementwise test for a finite value (bool result): not NaN, not +-inf.

    Argument: input; integers and bools are always finite.
    """
    if input.dtype.kind != "f":
        return np.ones(input.shape, dtype=bool)
    return as_result(np.isfinite(input))
