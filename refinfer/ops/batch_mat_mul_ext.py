"""BatchMatMulExt."""
from refinfer.registry import register

from ._ref.common import NUMBERS, matmul


@register("BatchMatMulExt", family="nn", dtypes=NUMBERS)
def batch_mat_mul_ext(input, mat2):
    """Batched matrix product of two 3-D tensors (mint.bmm, mint.einsum).

    out[b, i, j] = sum_k input[b, i, k] * mat2[b, k, j]; input (B, M, K),
    mat2 (B, K, N). float16 accumulates in float32.
    """
    if input.ndim != 3 or mat2.ndim != 3 or input.shape[0] != mat2.shape[0]:
        raise ValueError(f"BatchMatMulExt: (B, M, K) and (B, K, N) expected, "
                         f"got {input.shape} and {mat2.shape}")
    return matmul(input, mat2)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402
from . import batch_mat_mul  # noqa: E402


@register_kernel("BatchMatMulExt", "numba")
def batch_mat_mul_ext_numba(input, mat2):
    """BatchMatMulExt: same-dtype float stacks straight to BLAS, the
    matrices split across the worker threads (BatchMatMul's kernel);
    empty stacks, other dtypes and errors through the reference."""
    if input.ndim == 3 and mat2.ndim == 3 and input.shape[0] == mat2.shape[0] \
            and input.size and mat2.size \
            and _fast.float_operands(input, mat2) is not None:
        return batch_mat_mul.batched_matmul(input, mat2)
    return batch_mat_mul_ext(input, mat2)
