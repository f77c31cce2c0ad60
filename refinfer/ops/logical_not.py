"""LogicalNot."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result


@register("LogicalNot", family="comparison", dtypes=ALL)
def logical_not(input):
    """Elementwise logical not (bool result): True where input is zero.

    Argument: input (any dtype; NaN counts as nonzero, so gives False).
    """
    return as_result(np.logical_not(input))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("LogicalNot", "numba")
def logical_not_numba(input):
    """LogicalNot by NumPy's one-pass ufunc: a compiled loop measured no
    faster (``_fast_logic``'s module notes)."""
    return _fast_logic.ufunc(np.logical_not, input)
