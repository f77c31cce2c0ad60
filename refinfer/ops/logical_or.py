"""LogicalOr."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result


@register("LogicalOr", family="comparison", dtypes=ALL)
def logical_or(x, y):
    """Elementwise logical or with broadcasting (bool result).

    Arguments: x, y (tensors of any dtype or Python scalars; nonzero, NaN
    included, is True).
    """
    return as_result(np.logical_or(x, y))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("LogicalOr", "numba")
def logical_or_numba(x, y):
    """LogicalOr by NumPy's one-pass ufunc: a compiled loop measured no
    faster (``_fast_logic``'s module notes)."""
    return _fast_logic.ufunc(np.logical_or, x, y)
