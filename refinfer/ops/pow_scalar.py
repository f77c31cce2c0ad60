"""PowTensorScalar, PowScalarTensor."""
from refinfer.registry import register

from ._kernels.elementwise import binary
from ._kernels.program import OP_POW
from ._ref.common import NUMBERS
from ._ref.math import power


@register("PowTensorScalar", "PowScalarTensor", family="elementwise",
          dtypes=NUMBERS, recipe=binary(OP_POW))
def pow_scalar(input, exponent):
    """Power with one Python-number operand: y = input ** exponent.

    What mint.pow exports for ``pow(tensor, 2)`` (PowTensorScalar) and
    ``pow(2.0, tensor)`` (PowScalarTensor). Arguments: input, exponent (one
    tensor, one Python number), promoted as for Pow: an int scalar keeps
    the tensor's dtype, a float scalar with an integer tensor gives float32.
    That is the dtype MindSpore 2.7.1 infers and exports (and PyNative
    returns); its CPU graph kernel returns int64 for an integer tensor with
    an int scalar instead.
    """
    return power(input, exponent)
