"""RightShift."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import INTS, as_result
from ._ref.math import bitwise_operands


@register("RightShift", family="elementwise", dtypes=INTS,
          kernels={"numba": logic.bitwise(np.right_shift)})
def right_shift(input_x, input_y):
    """Elementwise arithmetic shift right with broadcasting: y = x >> s.

    Arguments: input_x, input_y (integer tensors of one dtype;
    ops.bitwise_right_shift). Signed values keep their sign
    (int8 -128 >> 3 = -16); a shift by the bit width or more gives 0 or -1.
    """
    a, b = bitwise_operands(input_x, input_y)
    return as_result(np.right_shift(a, b))
