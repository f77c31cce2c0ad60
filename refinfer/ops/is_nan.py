"""IsNan."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result


@register("IsNan", family="comparison", dtypes=ALL)
def is_nan(x):
    """Elementwise NaN test (bool result); integers and bools are never NaN.

    Argument: x (ops.isnan; a classic PRIMITIVE in MindIR).
    """
    if x.dtype.kind != "f":
        return np.zeros(x.shape, dtype=bool)
    return as_result(np.isnan(x))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("IsNan", "numba")
def is_nan_numba(x):
    """IsNan of float tensors by NumPy's one-pass ufunc (a compiled loop
    measured no faster); other dtypes through the reference."""
    return _fast_logic.float_test(np.isnan, is_nan, x)
