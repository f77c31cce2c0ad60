"""Mod."""
from refinfer.registry import register

from ._ref.common import NUMBERS, promote
from ._ref.math import trunc_mod


@register("Mod", family="elementwise", dtypes=NUMBERS)
def mod(x, y):
    """Elementwise truncated modulo (C fmod): x - trunc(x / y) * y.

    Arguments: x, y (tensors or Python scalars), promoted as for arithmetic.
    The result has the dividend's sign (-5.5 mod 2 = -1.5); ops.frac exports
    Mod(x, 1.0). Float x mod 0 is NaN. Bool is rejected.
    """
    a, b = promote(x, y)
    if a.dtype.kind == "b":
        raise TypeError("Mod does not support bool operands")
    return trunc_mod(a, b)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("Mod", "numba")
def mod_numba(x, y):
    """Mod in one compiled pass (``_fast_logic.division``): integer x mod 0
    and signs, float fmod exact without the C library's slow loop; float16
    as NumPy's one-pass ufunc, bool to the reference (which rejects it)."""
    return _fast_logic.division(_fast_logic.TRUNC_MOD, mod, x, y)
