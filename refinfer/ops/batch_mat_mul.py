"""BatchMatMul."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS, matmul


@register("BatchMatMul", family="nn", dtypes=NUMBERS,
          convert={"transpose_a": args.boolean, "transpose_b": args.boolean})
def batch_mat_mul(x, y, transpose_a=False, transpose_b=False):
    """Batched matrix product over the last two axes, batch axes broadcast.

    out[..., i, j] = sum_k op(x)[..., i, k] * op(y)[..., k, j].

    Arguments: x (..., M, K), y (..., K, N), rank >= 2; transpose_a=False,
    transpose_b=False swap the last two axes of x / y first. Batch axes
    broadcast as in NumPy (MindSpore's CPU kernel rejects unequal batch
    shapes; its documentation allows broadcasting). float16 accumulates in
    float32.
    """
    if x.ndim < 2 or y.ndim < 2:
        raise ValueError(f"BatchMatMul: operands must have rank >= 2, got "
                         f"{x.shape} and {y.shape}")
    return matmul(x.swapaxes(-1, -2) if transpose_a else x,
                  y.swapaxes(-1, -2) if transpose_b else y)


# -- numba backend -------------------------------------------------------------
import math  # noqa: E402

import numpy as np  # noqa: E402

from refinfer.registry import register_kernel  # noqa: E402
from refinfer.threads import GEMM_WORK, min_items, parallel_for  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("BatchMatMul", "numba")
def batch_mat_mul_numba(x, y, transpose_a=False, transpose_b=False):
    """BatchMatMul: same-dtype float operands straight to np.matmul, which
    hands each matrix to BLAS (transposes are strides, not copies)."""
    if x.ndim >= 2 and y.ndim >= 2 and _fast.float_operands(x, y) is not None:
        return batched_matmul(x.swapaxes(-1, -2) if transpose_a else x,
                              y.swapaxes(-1, -2) if transpose_b else y)
    return batch_mat_mul(x, y, transpose_a, transpose_b)


def batched_matmul(a, b):
    """np.matmul of same-dtype stacks; with equal batch axes the matrices
    are split across the worker threads."""
    batch = a.shape[:-2]
    if not batch or b.shape[:-2] != batch:
        return np.matmul(a, b)
    out = np.empty(batch + (a.shape[-2], b.shape[-1]), a.dtype)
    count = math.prod(batch)    # not -1: a 0-size matrix leaves it ambiguous
    a3, b3 = a.reshape((count,) + a.shape[-2:]), b.reshape((count,) + b.shape[-2:])
    o3 = out.reshape((count,) + out.shape[-2:])

    def matrices(lo, hi):
        np.matmul(a3[lo:hi], b3[lo:hi], out=o3[lo:hi])
    parallel_for(a3.shape[0], matrices, grain=min_items(
        a.shape[-2] * a.shape[-1] * b.shape[-1], GEMM_WORK))
    return out
