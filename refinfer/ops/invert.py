"""Invert."""
import numpy as np

from refinfer.registry import register

from ._ref.common import INTS, as_result


@register("Invert", family="elementwise", dtypes=INTS + ("bool",))
def invert(input):
    """Elementwise bitwise not: y = ~x (two's complement: ~5 = -6).

    Argument: input (integer; bool gives logical not). Same dtype.
    """
    if input.dtype.kind == "f":
        raise TypeError("Invert needs an integer or bool input")
    return as_result(np.invert(input))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("Invert", "numba")
def invert_numba(input):
    """Invert by NumPy's one-pass ufunc (a compiled loop measured no
    faster); floats through the reference (which rejects them)."""
    if input.dtype.kind == "f":
        return invert(input)   # raises
    return _fast_logic.ufunc(np.invert, input)
