"""BitwiseXor, BitwiseXorTensor, BitwiseXorScalar."""
import numpy as np

from refinfer.registry import register

from ._ref.common import INTS, as_result
from ._ref.math import bitwise_operands


@register("BitwiseXor", "BitwiseXorTensor", "BitwiseXorScalar",
          family="elementwise", dtypes=INTS + ("bool",))
def bitwise_xor(input, other):
    """Elementwise bitwise exclusive or with broadcasting: y = input ^ other.

    What ``x ^ y``, mint.bitwise_xor (tensor or Python int ``other``) export.
    Arguments: integer or bool tensors or Python ints, promoted as for
    arithmetic; bool ^ bool is logical xor. Floats are rejected.
    """
    return as_result(np.bitwise_xor(*bitwise_operands(input, other)))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("BitwiseXor", "numba")
@register_kernel("BitwiseXorTensor", "numba")
@register_kernel("BitwiseXorScalar", "numba")
def bitwise_xor_numba(input, other):
    """Bitwise xor by NumPy's one-pass ufunc on the operands checked as the
    reference does: a compiled loop measured no faster."""
    return _fast_logic.bitwise(np.bitwise_xor, input, other)
