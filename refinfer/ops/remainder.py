"""RemainderTensorTensor, RemainderTensorScalar, RemainderScalarTensor, and
the in-place spellings."""
from refinfer.registry import register

from ._kernels import logic
from ._ref.common import NUMBERS, promote
from ._ref.inplace import register_inplace
from ._ref.math import floor_mod


@register("RemainderTensorTensor", "RemainderTensorScalar",
          "RemainderScalarTensor", family="elementwise", dtypes=NUMBERS,
          kernels={"numba": logic.division(logic.FLOOR_MOD)})
def remainder(input, other):
    """Python's % with broadcasting: input - floor(input / other) * other.

    What ``x % y`` exports: RemainderTensorTensor for two tensors,
    RemainderTensorScalar for ``tensor % 2``, RemainderScalarTensor for
    ``2 % tensor``. Arguments: input, other, promoted as for arithmetic (a
    Python int keeps the tensor's dtype; a float with an integer tensor gives
    float32). The result has the divisor's sign, as FloorMod.
    InplaceRemainderTensorTensor and InplaceRemainderTensorScalar
    (x.remainder_(y)) write it into input (``ops._ref.inplace``).
    """
    a, b = promote(input, other)
    if a.dtype.kind == "b":
        raise TypeError("remainder does not support bool operands")
    return floor_mod(a, b)


register_inplace("RemainderTensorTensor", "InplaceRemainderTensorTensor",
                 "InplaceRemainderTensorScalar")
