"""BatchMatMulExt."""
from refinfer.registry import register

from ._kernels import gemm
from ._ref.common import NUMBERS, matmul


@register("BatchMatMulExt", family="nn", dtypes=NUMBERS,
          kernels={"numba": gemm.batch_mat_mul_ext})
def batch_mat_mul_ext(input, mat2):
    """Batched matrix product of two 3-D tensors (mint.bmm, mint.einsum).

    out[b, i, j] = sum_k input[b, i, k] * mat2[b, k, j]; input (B, M, K),
    mat2 (B, K, N). float16 accumulates in float32.
    """
    if input.ndim != 3 or mat2.ndim != 3 or input.shape[0] != mat2.shape[0]:
        raise ValueError(f"BatchMatMulExt: (B, M, K) and (B, K, N) expected, "
                         f"got {input.shape} and {mat2.shape}")
    return matmul(input, mat2)
