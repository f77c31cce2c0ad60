"""LeftShift."""
import numpy as np

from refinfer.registry import register

from ._ref.common import INTS, as_result
from ._ref.math import bitwise_operands


@register("LeftShift", family="elementwise", dtypes=INTS)
def left_shift(x1, x2):
    """Elementwise shift left with broadcasting: y = x1 << x2.

    Bits shifted beyond the dtype are dropped. Arguments: x1, x2 (integer
    tensors of one dtype; ops.bitwise_left_shift).
    int8 1 << 7 = -128; a shift by the bit width or more gives 0.
    """
    a, b = bitwise_operands(x1, x2)
    return as_result(np.left_shift(a, b))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("LeftShift", "numba")
def left_shift_numba(x1, x2):
    """LeftShift by NumPy's one-pass ufunc, which range-checks the shift in
    its loop (the reference's semantics): a compiled loop measured no faster."""
    return _fast_logic.bitwise(np.left_shift, x1, x2)
