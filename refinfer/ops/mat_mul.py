"""MatMul."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS, matmul


@register("MatMul", family="nn", dtypes=NUMBERS,
          convert={"transpose_a": args.boolean, "transpose_b": args.boolean})
def mat_mul(input, mat2, transpose_a=False, transpose_b=False):
    """Matrix product of two 2-D tensors, optionally transposed first.

    y = op(input) @ op(mat2), op transposing when transpose_a / transpose_b
    is set.

    Arguments: input (M, K) or (K, M); mat2 (K, N) or (N, K);
    transpose_a=False, transpose_b=False (nn.Dense exports
    MatMul(x, W, False, True)). MindSpore accepts 2-D operands of one dtype
    only. float16 accumulates in float32.
    """
    if input.ndim != 2 or mat2.ndim != 2:
        raise ValueError(f"MatMul: operands must be 2-D, got {input.shape} "
                         f"and {mat2.shape}")
    return matmul(input.T if transpose_a else input,
                  mat2.T if transpose_b else mat2)


# -- numba backend -------------------------------------------------------------
# GEMM is BLAS's job: the fast path calls np.matmul directly on same-dtype
# float operands (no promotion work); the plan pre-packs constant weights
# and fuses bias and activation into one pass over the product.
import numpy as np  # noqa: E402

from refinfer.registry import register_kernel  # noqa: E402
from refinfer.threads import GEMM_WORK, STREAM_BYTES, min_items, parallel_for  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


def fused_matmul(x, weight, bias, act, shape=None):
    """act(x @ weight + bias), reshaped to ``shape`` when given: ``weight``
    (K, N) packed contiguous, bias (N,) or None, act an ``_fast.ACT_*``
    code; x of weight's dtype with x's last axis K (np.matmul rules for the
    leading axes). None when x does not fit (the caller falls back)."""
    if not isinstance(x, np.ndarray) or x.dtype != weight.dtype \
            or x.ndim == 0 or x.shape[-1] != weight.shape[0]:
        return None
    y = parallel_matmul(_fast.writable(x).reshape(-1, x.shape[-1]), weight,
                        bias, act).reshape(x.shape[:-1] + weight.shape[1:])
    return y if shape is None else y.reshape(shape)


COLUMN_BLOCK = 64     # weight columns per piece of a column split


def parallel_matmul(x, weight, bias=None, act=_fast.ACT_NONE):
    """act(x @ weight + bias) for 2-D x, split across the worker threads:
    by rows of x when x has more rows than weight has columns, else by
    blocks of weight's columns, so that each thread packs only its part of
    the weight (BLAS packs the whole right operand for every call). Measured
    with 2 threads: columns are 4-9% faster on transformer shapes (128 x 768
    by 768 x 3072) and 22% on 49 x 4608 by 4608 x 512; rows 1.8x faster on
    3136 x 576 by 576 x 64. A column split is worth it for the weight bytes
    each piece streams as well as for its multiply-adds: a product of a few
    rows is bound by reading the weight (16 x 768 by 768 x 768: 0.64 ms on
    one thread, 0.54 ms on two; 1 x 768 by 768 x 768: 1.29x faster)."""
    m, n = x.shape[0], weight.shape[1]
    y = np.empty((m, n), np.result_type(x, weight))
    if n < m:
        def rows(lo, hi):
            np.matmul(x[lo:hi], weight, out=y[lo:hi])
            _fast.bias_activation(y[lo:hi], bias, act)
        parallel_for(m, rows, grain=min_items(x.shape[1] * n, GEMM_WORK))
        return y

    def columns(lo, hi):
        first, last = lo * COLUMN_BLOCK, min(hi * COLUMN_BLOCK, n)
        np.matmul(x, weight[:, first:last], out=y[:, first:last])
    block_bytes = x.shape[1] * COLUMN_BLOCK * weight.itemsize
    parallel_for(-(-n // COLUMN_BLOCK), columns,
                 grain=min(min_items(m * x.shape[1] * COLUMN_BLOCK, GEMM_WORK),
                           min_items(block_bytes, STREAM_BYTES)))
    return _fast.bias_activation(y, bias, act)


@register_kernel("MatMul", "numba")
def mat_mul_numba(input, mat2, transpose_a=False, transpose_b=False):
    """MatMul: same-dtype float 2-D operands straight to BLAS."""
    if input.ndim == 2 and mat2.ndim == 2 \
            and _fast.float_operands(input, mat2) is not None:
        return parallel_matmul(input.T if transpose_a else input,
                               mat2.T if transpose_b else mat2)
    return mat_mul(input, mat2, transpose_a, transpose_b)
