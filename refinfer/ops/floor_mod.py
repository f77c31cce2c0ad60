"""FloorMod."""
from refinfer.registry import register

from ._ref.common import NUMBERS, promote
from ._ref.math import floor_mod as modulo


@register("FloorMod", family="elementwise", dtypes=NUMBERS)
def floor_mod(x, y):
    """Elementwise floored modulo with broadcasting: x - floor(x / y) * y.

    Arguments: x, y (tensors or Python scalars), promoted as for arithmetic.
    The result has the divisor's sign (5.5 mod -2 = -0.5), like Python's %.
    x mod 0 is NaN for floats and the dtype's minimum for integers
    (MindSpore 2.7.1 CPU). Bool is rejected.
    """
    a, b = promote(x, y)
    if a.dtype.kind == "b":
        raise TypeError("FloorMod does not support bool operands")
    return modulo(a, b)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("FloorMod", "numba")
def floor_mod_numba(x, y):
    """FloorMod in one compiled pass (``_fast_logic.division``): integer x mod 0
    and signs, float fmod exact without the C library's slow loop; float16
    as NumPy's one-pass ufunc, bool to the reference (which rejects it)."""
    return _fast_logic.division(_fast_logic.FLOOR_MOD, floor_mod, x, y)
