"""BatchMatMul."""
from refinfer import args
from refinfer.registry import register

from ._kernels import gemm
from ._ref.common import NUMBERS, matmul, require_tensors


@register("BatchMatMul", family="nn", dtypes=NUMBERS,
          convert={"transpose_a": args.boolean, "transpose_b": args.boolean},
          kernels={"numba": gemm.batch_mat_mul})
def batch_mat_mul(x, y, transpose_a=False, transpose_b=False):
    """Batched matrix product over the last two axes, batch axes broadcast.

    out[..., i, j] = sum_k op(x)[..., i, k] * op(y)[..., k, j].

    Arguments: x (..., M, K), y (..., K, N), rank >= 2; transpose_a=False,
    transpose_b=False swap the last two axes of x / y first. Batch axes
    broadcast as in NumPy (MindSpore's CPU kernel rejects unequal batch
    shapes; its documentation allows broadcasting). float16 accumulates in
    float32.
    """
    require_tensors("BatchMatMul", x=x, y=y)
    if x.ndim < 2 or y.ndim < 2:
        raise ValueError(f"BatchMatMul: operands must have rank >= 2, got "
                         f"{x.shape} and {y.shape}")
    return matmul(x.swapaxes(-1, -2) if transpose_a else x,
                  y.swapaxes(-1, -2) if transpose_b else y)
