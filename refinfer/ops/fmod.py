"""FmodTensor, FmodScalar."""
from refinfer.registry import register

from ._kernels import logic
from ._ref.common import NUMBERS, promote
from ._ref.math import trunc_mod


@register("FmodTensor", "FmodScalar", family="elementwise", dtypes=NUMBERS,
          kernels={"numba": logic.division(logic.TRUNC_MOD)})
def fmod(input, other):
    """Truncated modulo (C fmod) with a tensor or scalar divisor (mint.fmod).

    Arguments: input (tensor); other (tensor for FmodTensor, Python number
    for FmodScalar), promoted as for arithmetic. The result has the
    dividend's sign, as Mod. MindSpore 2.7.1 has no CPU kernel for either.
    """
    a, b = promote(input, other)
    if a.dtype.kind == "b":
        raise TypeError("fmod does not support bool operands")
    return trunc_mod(a, b)
