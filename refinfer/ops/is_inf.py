"""IsInf."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result


@register("IsInf", family="comparison", dtypes=ALL)
def is_inf(input):
    """Elementwise test for +inf or -inf (bool result).

    Argument: input; NaN, integers and bools are not infinite.
    """
    if input.dtype.kind != "f":
        return np.zeros(input.shape, dtype=bool)
    return as_result(np.isinf(input))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("IsInf", "numba")
def is_inf_numba(input):
    """IsInf of float tensors by NumPy's one-pass ufunc (a compiled loop
    measured no faster); other dtypes through the reference."""
    return _fast_logic.float_test(np.isinf, is_inf, input)
