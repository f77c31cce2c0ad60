"""The ``cuda`` kernels of the matrix products: MatMul, BatchMatMul (and
their transpose flags), MatMulExt, BatchMatMulExt and Dense, one tiled
kernel for all of them (declared in :data:`KERNELS`).

out[b, i, j] = bias[j] + sum_k a[b, i, k] * c[b, k, j]: a block computes
one TILE x TILE tile of the output, one thread per element; the tiles of
a and c it needs are staged through shared memory a K-slice at a time,
so each element of the operands is read from global memory once per tile
instead of once per product. Transposes are strides and broadcast batch
axes are offsets (refinfer/cuda/layout.py): nothing is copied.

Accumulation is in the operands' dtype (float16 in float32, as the
reference), in plain multiply-adds: float32 stays float32, as MindSpore's
CPU MatMul does (nnacl's fp32 kernels keep float32 accumulators), and
never TF32 (hand-written kernels cannot reach the tensor cores;
MindSpore's GPU backend leaves TF32 off by default, and Lite's
``enforce_fp32`` forbids it). The sum runs in order
over k, where BLAS blocks it: float32 results differ from NumPy's in the
last bits (tests/cuda/test_cuda_gemm.py states the tolerance).

Operands of two dtypes, shapes that do not fit, a broadcast bias and
1-D Dense weights decline (the reference runs, or raises its error).
"""
from __future__ import annotations

import math
from functools import lru_cache

import numba
import numpy as np
from numba import types

from refinfer import registry
from refinfer.ops._ref.common import NUMBERS, compute_dtype

from . import device
from .device import cuda
from .layout import batch_offsets, flat, load

# Output tile edge: 16 x 16 = 256 threads a block on a GPU; 4 x 4 under the
# simulator (a Python thread per CUDA thread), which also puts tile edges
# inside the tests' small matrices.
TILE = 4 if device.SIMULATED else 16
DTYPES = frozenset(np.dtype(name) for name in NUMBERS)


@lru_cache(maxsize=None)
def tiled_kernel(dtype: np.dtype, tile: int = TILE):
    """The tiled product kernel for operands of ``dtype``, accumulating in
    its compute dtype (a shared tile has a fixed element type)."""
    work = numba.from_dtype(compute_dtype(dtype))

    @device.jit
    def tiled_product(a, c, out, a_starts, c_starts, m, n, k, a_strides, c_strides,
                bias, zero):
        """out[b] = a[b] @ c[b] (+ bias) for every matrix b; a (m x k) at
        a_starts[b] with element strides a_strides (row, column), c
        (k x n) likewise, bias of n elements or none."""
        a_tile = cuda.shared.array((tile, tile), work)
        c_tile = cuda.shared.array((tile, tile), work)
        ty, tx = cuda.threadIdx.y, cuda.threadIdx.x
        tiles_m, tiles_n = (m + tile - 1) // tile, (n + tile - 1) // tile
        per_matrix = tiles_m * tiles_n
        for job in range(cuda.blockIdx.x, a_starts.size * per_matrix,
                         cuda.gridDim.x):
            b = job // per_matrix
            i = (job % per_matrix) // tiles_n * tile + ty
            j = (job % tiles_n) * tile + tx
            acc = zero
            for k0 in range(0, k, tile):
                a_tile[ty, tx] = load(a, a_starts[b], i, k0 + tx, m, k,
                                      a_strides[0], a_strides[1], zero)
                c_tile[ty, tx] = load(c, c_starts[b], k0 + ty, j, k, n,
                                      c_strides[0], c_strides[1], zero)
                cuda.syncthreads()
                for t in range(tile):
                    acc += a_tile[ty, t] * c_tile[t, tx]
                cuda.syncthreads()      # the tiles are refilled next
            if i < m and j < n:
                out[(b * m + i) * n + j] = acc + bias[j] if bias.size else acc
    return tiled_product


def ptx_kernels() -> list[tuple]:
    """(name, Python function, argument types) of this module's kernels
    for tools/check_ptx.py: the GPU's tile for each float dtype."""
    kernels = []
    for dtype in map(np.dtype, ("float16", "float32", "float64")):
        value, index = numba.from_dtype(dtype)[::1], numba.int64[::1]
        pair = types.UniTuple(numba.int64, 2)
        kernels.append((f"gemm tiled product, {dtype.name}",
                        tiled_kernel(dtype, 16).py_func,
                        (value, value, value, index, index, numba.int64, numba.int64,
                         numba.int64, pair, pair, value,
                         numba.from_dtype(compute_dtype(dtype)))))
    return kernels


def _matrix(shape: tuple, transpose: bool) -> tuple:
    """((rows, cols), (row stride, column stride)) of the matrices in the
    last two axes of a C-contiguous array, read transposed when asked."""
    rows, cols = shape[-2:]
    if transpose:
        return (cols, rows), (1, cols)
    return (rows, cols), (cols, 1)


def product(a, c, transpose_a=False, transpose_c=False, bias=None):
    """a @ c with NumPy's matmul rules for operands of rank >= 2 (batch
    axes broadcast), the last two axes transposed first where asked, plus
    bias (n elements) on every row; a device array, or None where the
    operands do not fit or their dtypes differ."""
    operands = (a, c) if bias is None else (a, c, bias)
    dtype = a.dtype
    if any(x.dtype != dtype for x in operands) or dtype not in DTYPES \
            or a.ndim < 2 or c.ndim < 2:
        return None
    (m, k), a_strides = _matrix(a.shape, transpose_a)
    (k_c, n), c_strides = _matrix(c.shape, transpose_c)
    try:
        batch = np.broadcast_shapes(a.shape[:-2], c.shape[:-2])
    except ValueError:
        return None
    if k != k_c or bias is not None and bias.size != n:
        return None
    out = device.empty(batch + (m, n), dtype)
    if out.size == 0:
        return out
    starts = [device.constant(batch_offsets(batch, x.shape[:-2],
                                            math.prod(x.shape[-2:])))
              for x in (a, c)]
    bias = flat(bias) if bias is not None else device.empty(0, dtype)
    tiles = math.prod(batch) * -(-m // TILE) * -(-n // TILE)
    device.launch_blocks(
        tiled_kernel(np.dtype(dtype)), tiles, (TILE, TILE), flat(a), flat(c),
        flat(out), *starts, m, n, k, a_strides, c_strides, bias,
        compute_dtype(dtype).type(0))
    return out


def mat_mul(input, mat2, transpose_a=False, transpose_b=False):
    """MatMul: 2-D operands."""
    if input.ndim != 2 or mat2.ndim != 2:
        return None
    return product(input, mat2, transpose_a, transpose_b)


def batch_mat_mul(x, y, transpose_a=False, transpose_b=False):
    """BatchMatMul: rank >= 2, batch axes broadcast."""
    return product(x, y, transpose_a, transpose_b)


def batch_mat_mul_ext(input, mat2):
    """BatchMatMulExt: (B, M, K) @ (B, K, N)."""
    if input.ndim != 3 or mat2.ndim != 3 or input.shape[0] != mat2.shape[0]:
        return None
    return product(input, mat2)


def mat_mul_ext(input, other):
    """MatMulExt: NumPy's matmul, a 1-D operand promoted to a matrix (a
    row on the left, a column on the right) and that axis dropped after."""
    if input.ndim == 0 or other.ndim == 0:
        return None
    a = input.reshape((1,) + input.shape) if input.ndim == 1 else input
    c = other.reshape(other.shape + (1,)) if other.ndim == 1 else other
    y = product(a, c)
    if y is None:
        return None
    drop = y.shape[:-2] + (() if input.ndim == 1 else y.shape[-2:-1]) \
        + (() if other.ndim == 1 else y.shape[-1:])
    return y.reshape(drop)


def dense(input, weight, bias=None):
    """Dense: input @ weight.T + bias, a 2-D weight and a bias of one per
    output (or none)."""
    if input.ndim == 0 or weight.ndim != 2:
        return None
    rows = input.reshape((1,) + input.shape) if input.ndim == 1 else input
    y = product(rows, weight, transpose_c=True, bias=bias)
    return None if y is None else y.reshape(input.shape[:-1] + weight.shape[:1])


KERNELS = {"MatMul": mat_mul, "BatchMatMul": batch_mat_mul,
           "BatchMatMulExt": batch_mat_mul_ext, "MatMulExt": mat_mul_ext,
           "Dense": dense}
registry.declare_kernels("cuda", KERNELS)
