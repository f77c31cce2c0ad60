"""GreaterEqual."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result, promote


@register("GreaterEqual", family="comparison", dtypes=ALL)
def greater_equal(input, other):
    """Elementwise comparison with broadcasting: y = input >= other (bool).

    Arguments: input, other (tensors or Python scalars), promoted as for
    arithmetic first (see Greater). Comparisons with NaN are False.
    """
    a, b = promote(input, other)
    return as_result(np.greater_equal(a, b))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("GreaterEqual", "numba")
def greater_equal_numba(input, other):
    """GreaterEqual of the promoted operands by NumPy's one-pass ufunc: a compiled
    loop measured no faster (``_fast_logic``'s module notes)."""
    return _fast_logic.comparison(np.greater_equal, input, other)
