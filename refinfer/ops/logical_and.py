"""LogicalAnd."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result


@register("LogicalAnd", family="comparison", dtypes=ALL)
def logical_and(x, y):
    """Elementwise logical and with broadcasting (bool result).

    Arguments: x, y (tensors of any dtype or Python scalars; nonzero, NaN
    included, is True).
    """
    return as_result(np.logical_and(x, y))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("LogicalAnd", "numba")
def logical_and_numba(x, y):
    """LogicalAnd by NumPy's one-pass ufunc: a compiled loop measured no
    faster (``_fast_logic``'s module notes)."""
    return _fast_logic.ufunc(np.logical_and, x, y)
