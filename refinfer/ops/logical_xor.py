"""LogicalXor."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result


@register("LogicalXor", family="comparison", dtypes=ALL)
def logical_xor(input, other):
    """Elementwise logical exclusive or with broadcasting (bool result).

    Arguments: input, other (tensors of any dtype or Python scalars; nonzero,
    NaN included, is True).
    """
    return as_result(np.logical_xor(input, other))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("LogicalXor", "numba")
def logical_xor_numba(input, other):
    """LogicalXor by NumPy's one-pass ufunc: a compiled loop measured no
    faster (``_fast_logic``'s module notes)."""
    return _fast_logic.ufunc(np.logical_xor, input, other)
