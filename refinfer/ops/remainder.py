"""RemainderTensorTensor, RemainderTensorScalar, RemainderScalarTensor."""
from refinfer.registry import register

from ._ref.common import NUMBERS, promote
from ._ref.math import floor_mod


@register("RemainderTensorTensor", "RemainderTensorScalar",
          "RemainderScalarTensor", family="elementwise", dtypes=NUMBERS)
def remainder(input, other):
    """Python's % with broadcasting: input - floor(input / other) * other.

    What ``x % y`` exports: RemainderTensorTensor for two tensors,
    RemainderTensorScalar for ``tensor % 2``, RemainderScalarTensor for
    ``2 % tensor``. Arguments: input, other, promoted as for arithmetic (a
    Python int keeps the tensor's dtype; a float with an integer tensor gives
    float32). The result has the divisor's sign, as FloorMod.
    """
    a, b = promote(input, other)
    if a.dtype.kind == "b":
        raise TypeError("remainder does not support bool operands")
    return floor_mod(a, b)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("RemainderTensorTensor", "numba")
@register_kernel("RemainderTensorScalar", "numba")
@register_kernel("RemainderScalarTensor", "numba")
def remainder_numba(input, other):
    """Remainder in one compiled pass (``_fast_logic.division``): integer x mod 0
    and signs, float fmod exact without the C library's slow loop; float16
    as NumPy's one-pass ufunc, bool to the reference (which rejects it)."""
    return _fast_logic.division(_fast_logic.FLOOR_MOD, remainder, input, other)
