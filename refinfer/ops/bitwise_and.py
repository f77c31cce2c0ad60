"""BitwiseAnd, BitwiseAndTensor, BitwiseAndScalar."""
import numpy as np

from refinfer.registry import register

from ._ref.common import INTS, as_result
from ._ref.math import bitwise_operands


@register("BitwiseAnd", "BitwiseAndTensor", "BitwiseAndScalar",
          family="elementwise", dtypes=INTS + ("bool",))
def bitwise_and(input, other):
    """Elementwise bitwise and with broadcasting: y = input & other.

    What ``x & y`` (BitwiseAnd), mint.bitwise_and (BitwiseAndTensor) and
    ``mint.bitwise_and(x, 3)`` (BitwiseAndScalar) export. Arguments: integer
    or bool tensors or Python ints, promoted as for arithmetic; bool & bool
    is logical and. Floats are rejected.
    """
    return as_result(np.bitwise_and(*bitwise_operands(input, other)))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("BitwiseAnd", "numba")
@register_kernel("BitwiseAndTensor", "numba")
@register_kernel("BitwiseAndScalar", "numba")
def bitwise_and_numba(input, other):
    """Bitwise and by NumPy's one-pass ufunc on the operands checked as the
    reference does: a compiled loop measured no faster."""
    return _fast_logic.bitwise(np.bitwise_and, input, other)
