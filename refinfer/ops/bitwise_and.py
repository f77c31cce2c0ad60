"""BitwiseAnd, BitwiseAndTensor, BitwiseAndScalar."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import INTS, as_result
from ._ref.math import bitwise_operands


@register("BitwiseAnd", "BitwiseAndTensor", "BitwiseAndScalar",
          family="elementwise", dtypes=INTS + ("bool",),
          kernels={"numba": logic.bitwise(np.bitwise_and)})
def bitwise_and(input, other):
    """Elementwise bitwise and with broadcasting: y = input & other.

    What ``x & y`` (BitwiseAnd), mint.bitwise_and (BitwiseAndTensor) and
    ``mint.bitwise_and(x, 3)`` (BitwiseAndScalar) export. Arguments: integer
    or bool tensors or Python ints, promoted as for arithmetic; bool & bool
    is logical and. Floats are rejected.
    """
    return as_result(np.bitwise_and(*bitwise_operands(input, other)))
