"""FloorMod."""
from refinfer.registry import register

from ._kernels import logic
from ._ref.common import NUMBERS, promote
from ._ref.math import floor_mod as modulo


@register("FloorMod", family="elementwise", dtypes=NUMBERS,
          kernels={"numba": logic.division(logic.FLOOR_MOD)})
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
