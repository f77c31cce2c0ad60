"""IsFinite."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result


@register("IsFinite", family="comparison", dtypes=ALL)
def is_finite(input):
    """Elementwise test for a finite value (bool result): not NaN, not +-inf.

    Argument: input; integers and bools are always finite.
    """
    if input.dtype.kind != "f":
        return np.ones(input.shape, dtype=bool)
    return as_result(np.isfinite(input))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("IsFinite", "numba")
def is_finite_numba(input):
    """IsFinite of float tensors by NumPy's one-pass ufunc (a compiled loop
    measured no faster); other dtypes through the reference."""
    return _fast_logic.float_test(np.isfinite, is_finite, input)
