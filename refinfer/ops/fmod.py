"""FmodTensor, FmodScalar."""
from refinfer.registry import register

from ._ref.common import NUMBERS, promote
from ._ref.math import trunc_mod


@register("FmodTensor", "FmodScalar", family="elementwise", dtypes=NUMBERS)
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


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("FmodTensor", "numba")
@register_kernel("FmodScalar", "numba")
def fmod_numba(input, other):
    """Fmod in one compiled pass (``_fast_logic.division``): integer x mod 0
    and signs, float fmod exact without the C library's slow loop; float16
    as NumPy's one-pass ufunc, bool to the reference (which rejects it)."""
    return _fast_logic.division(_fast_logic.TRUNC_MOD, fmod, input, other)
