"""IsNegInf."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result


@register("IsNegInf", family="comparison", dtypes=ALL)
def is_neg_inf(input):
    """Elementwise test for -inf (bool result), what mint.isneginf exports.

    Argument: input; integers and bools give False. MindSpore 2.7.1 has no
    CPU kernel for it.
    """
    if input.dtype.kind != "f":
        return np.zeros(input.shape, dtype=bool)
    return as_result(np.isneginf(input))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("IsNegInf", "numba")
def is_neg_inf_numba(input):
    """IsNegInf of float tensors as x == -inf, NumPy's one-pass ufunc (the
    reference's np.isneginf makes three passes); other dtypes through the
    reference."""
    return _fast_logic.float_test(np.equal, is_neg_inf, input, -np.inf)
