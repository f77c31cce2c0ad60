"""BitwiseOr, BitwiseOrTensor, BitwiseOrScalar."""
import numpy as np

from refinfer.registry import register

from ._ref.common import INTS, as_result
from ._ref.math import bitwise_operands


@register("BitwiseOr", "BitwiseOrTensor", "BitwiseOrScalar",
          family="elementwise", dtypes=INTS + ("bool",))
def bitwise_or(input, other):
    """Elementwise bitwise or with broadcasting: y = input | other.

    What ``x | y``, mint.bitwise_or (tensor or Python int ``other``) export.
    Arguments: integer or bool tensors or Python ints, promoted as for
    arithmetic; bool | bool is logical or. Floats are rejected.
    """
    return as_result(np.bitwise_or(*bitwise_operands(input, other)))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("BitwiseOr", "numba")
@register_kernel("BitwiseOrTensor", "numba")
@register_kernel("BitwiseOrScalar", "numba")
def bitwise_or_numba(input, other):
    """Bitwise or by NumPy's one-pass ufunc on the operands checked as the
    reference does: a compiled loop measured no faster."""
    return _fast_logic.bitwise(np.bitwise_or, input, other)
