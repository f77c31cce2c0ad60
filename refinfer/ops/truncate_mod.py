"""TruncateMod."""
from refinfer.registry import register

from ._kernels import logic
from ._ref.common import NUMBERS, promote
from ._ref.math import trunc_mod


@register("TruncateMod", family="elementwise", dtypes=NUMBERS,
          kernels={"numba": logic.division(logic.TRUNC_MOD)})
def truncate_mod(x, y):
    """Elementwise remainder of the truncated division: x - trunc(x / y) * y.

    Arguments: x, y (tensors or Python scalars), promoted as for arithmetic.
    The result has the dividend's sign (C fmod, as Mod): -7.5 mod 2 = -1.5.
    Float x mod 0 is NaN, an integer one 0 (MindSpore 2.7.1 CPU). Bool is
    rejected.
    """
    a, b = promote(x, y)
    if a.dtype.kind == "b":
        raise TypeError("TruncateMod does not support bool operands")
    return trunc_mod(a, b)
