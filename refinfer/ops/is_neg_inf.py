"""IsNegInf."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, as_result


@register("IsNegInf", family="comparison", dtypes=ALL,
          kernels={"numba": logic.float_test(np.equal, -np.inf)})
def is_neg_inf(input):
    """Elementwise test for -inf (bool result), what mint.isneginf exports.

    Argument: input; integers and bools give False. MindSpore 2.7.1 has no
    CPU kernel for it.
    """
    if input.dtype.kind != "f":
        return np.zeros(input.shape, dtype=bool)
    return as_result(np.isneginf(input))
