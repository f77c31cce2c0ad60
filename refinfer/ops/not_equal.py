"""NotEqual."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result, promote


@register("NotEqual", family="comparison", dtypes=ALL)
def not_equal(input, other):
    """Elementwise comparison with broadcasting: y = input != other (bool).

    Arguments: input, other (tensors or Python scalars), promoted as for
    arithmetic first (see Equal). NaN != anything is True.
    """
    a, b = promote(input, other)
    return as_result(np.not_equal(a, b))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("NotEqual", "numba")
def not_equal_numba(input, other):
    """NotEqual of the promoted operands by NumPy's one-pass ufunc: a compiled
    loop measured no faster (``_fast_logic``'s module notes)."""
    return _fast_logic.comparison(np.not_equal, input, other)
