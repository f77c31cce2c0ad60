"""BitwiseOr, BitwiseOrTensor, BitwiseOrScalar."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import INTS, as_result
from ._ref.math import bitwise_operands


@register("BitwiseOr", "BitwiseOrTensor", "BitwiseOrScalar",
          family="elementwise", dtypes=INTS + ("bool",),
          kernels={"numba": logic.bitwise(np.bitwise_or)})
def bitwise_or(input, other):
    """Elementwise bitwise or with broadcasting: y = input | other.

    What ``x | y``, mint.bitwise_or (tensor or Python int ``other``) export.
    Arguments: integer or bool tensors or Python ints, promoted as for
    arithmetic; bool | bool is logical or. Floats are rejected.
    """
    return as_result(np.bitwise_or(*bitwise_operands(input, other)))
