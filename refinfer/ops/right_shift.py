"""RightShift."""
import numpy as np

from refinfer.registry import register

from ._ref.common import INTS, as_result
from ._ref.math import bitwise_operands


@register("RightShift", family="elementwise", dtypes=INTS)
def right_shift(input_x, input_y):
    """Elementwise arithmetic shift right with broadcasting: y = x >> s.

    Arguments: input_x, input_y (integer tensors of one dtype;
    ops.bitwise_right_shift). Signed values keep their sign
    (int8 -128 >> 3 = -16); a shift by the bit width or more gives 0 or -1.
    """
    a, b = bitwise_operands(input_x, input_y)
    return as_result(np.right_shift(a, b))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("RightShift", "numba")
def right_shift_numba(input_x, input_y):
    """RightShift by NumPy's one-pass ufunc, which range-checks the shift in
    its loop (the reference's semantics): a compiled loop measured no faster."""
    return _fast_logic.bitwise(np.right_shift, input_x, input_y)
