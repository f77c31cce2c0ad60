"""LeftShift."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import INTS, as_result
from ._ref.math import bitwise_operands


@register("LeftShift", family="elementwise", dtypes=INTS,
          kernels={"numba": logic.bitwise(np.left_shift)})
def left_shift(x1, x2):
    """Elementwise shift left with broadcasting: y = x1 << x2.

    Bits shifted beyond the dtype are dropped. Arguments: x1, x2 (integer
    tensors of one dtype; ops.bitwise_left_shift).
    int8 1 << 7 = -128; a shift by the bit width or more gives 0.
    """
    a, b = bitwise_operands(x1, x2)
    return as_result(np.left_shift(a, b))
