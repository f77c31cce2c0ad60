"""BitwiseXor, BitwiseXorTensor, BitwiseXorScalar."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import INTS, as_result
from ._ref.math import bitwise_operands


@register("BitwiseXor", "BitwiseXorTensor", "BitwiseXorScalar",
          family="elementwise", dtypes=INTS + ("bool",),
          kernels={"numba": logic.bitwise(np.bitwise_xor)})
def bitwise_xor(input, other):
    """Elementwise bitwise exclusive or with broadcasting: y = input ^ other.

    What ``x ^ y``, mint.bitwise_xor (tensor or Python int ``other``) export.
    Arguments: integer or bool tensors or Python ints, promoted as for
    arithmetic; bool ^ bool is logical xor. Floats are rejected.
    """
    return as_result(np.bitwise_xor(*bitwise_operands(input, other)))
