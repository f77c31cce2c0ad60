"""MatMulExt."""
from refinfer.registry import register

from ._ref.common import NUMBERS, matmul


@register("MatMulExt", family="nn", dtypes=NUMBERS)
def mat_mul_ext(input, other):
    """Matrix product with NumPy's ``matmul`` rules (what ops.matmul exports).

    1-D x 1-D is a dot product (0-d result); a 1-D operand is promoted to a
    matrix and the added axis removed; batch axes broadcast. float16
    accumulates in float32.
    """
    return matmul(input, other)


# -- numba backend -------------------------------------------------------------
import numpy as np  # noqa: E402

from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402
from .mat_mul import parallel_matmul  # noqa: E402


@register_kernel("MatMulExt", "numba")
def mat_mul_ext_numba(input, other):
    """MatMulExt: same-dtype float operands straight to np.matmul (BLAS)."""
    if _fast.float_operands(input, other) is None \
            or not isinstance(input, np.ndarray) \
            or not isinstance(other, np.ndarray):
        return mat_mul_ext(input, other)
    if input.ndim >= 2 and other.ndim == 2 and input.shape[-1] == other.shape[0]:
        flat = _fast.writable(input).reshape(-1, input.shape[-1])
        return parallel_matmul(flat, other).reshape(input.shape[:-1] + other.shape[1:])
    return np.asarray(np.matmul(input, other))
