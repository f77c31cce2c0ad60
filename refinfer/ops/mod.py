"""Mod."""
from refinfer.registry import register

from ._kernels import logic
from ._ref.common import NUMBERS, promote
from ._ref.math import trunc_mod


@register("Mod", family="elementwise", dtypes=NUMBERS,
          kernels={"numba": logic.division(logic.TRUNC_MOD)})
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
