"""MatMulExt."""
from refinfer.registry import register

from ._kernels import gemm
from ._ref.common import NUMBERS, matmul


@register("MatMulExt", family="nn", dtypes=NUMBERS,
          kernels={"numba": gemm.mat_mul_ext})
def mat_mul_ext(input, other):
    """Matrix product with NumPy's ``matmul`` rules (what ops.matmul exports).

    1-D x 1-D is a dot product (0-d result); a 1-D operand is promoted to a
    matrix and the added axis removed; batch axes broadcast. float16
    accumulates in float32.
    """
    return matmul(input, other)
