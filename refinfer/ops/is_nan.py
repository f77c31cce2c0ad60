"""IsNan."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, as_result


@register("IsNan", family="comparison", dtypes=ALL,
          kernels={"numba": logic.float_test(np.isnan)})
def is_nan(x):
    """Elementwise NaN test (bool result); integers and bools are never NaN.

    Argument: x (ops.isnan; a classic PRIMITIVE in MindIR).
    """
    if x.dtype.kind != "f":
        return np.zeros(x.shape, dtype=bool)
    return as_result(np.isnan(x))
