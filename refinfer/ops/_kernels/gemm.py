"""GEMM kernels (``numba`` backend of MatMul, MatMulExt, BatchMatMul,
BatchMatMulExt, Dense and LSTM, and the plan's fused MatMul).

GEMM is BLAS's job: the kernels hand same-dtype float operands (no
promotion work) to NumPy's matmul or, for float32 matrices, to
:func:`blas.matmul` (MKL where it is faster), split across the worker
threads; the plan lays out constant weights as their products read them
and fuses bias and activation into one pass over the product
(:func:`fused_matmul`), or, for a weight packed for our own product
(passes/gemm.py, where :func:`packed.enabled`), into its tiles.
"""
from __future__ import annotations

import math

import numpy as np

from refinfer.jit import kernel
from refinfer.threads import (GEMM_WORK, STREAM_BYTES, current_threads,
                              gemm_items, min_items, parallel_for)

from . import blas, packed, program
from .._ref.common import require_tensors
from .._ref.lstm import layers


def fused_matmul(x, weight, bias, act, shape=None):
    """act(x @ weight + bias), reshaped to ``shape`` when given: ``weight``
    (K, N), an array or a :class:`packed.PackedRight`, bias (N,) or None,
    act a ``program.ACT_*`` code; x of weight's dtype with x's last axis K
    (np.matmul rules for the leading axes). None when x does not fit (the
    caller falls back)."""
    if not isinstance(x, np.ndarray) or x.dtype != weight.dtype \
            or x.ndim == 0 or x.shape[-1] != weight.shape[0]:
        return None
    product = parallel_matmul
    if isinstance(weight, packed.PackedRight):
        if not x.size:      # (the reference's: an empty depth leaves the bias)
            return None
        product = packed_matmul
    y = product(program.writable(x).reshape(-1, x.shape[-1]), weight,
                bias, act).reshape(x.shape[:-1] + weight.shape[1:])
    return y if shape is None else y.reshape(shape)


COLUMN_BLOCK = 64     # weight columns per piece of a column split


def packed_matmul(x, weight, bias, act):
    """act(x @ W + bias) for 2-D C-contiguous float32 x, W the packed
    ``weight`` (:class:`packed.PackedRight`): the weight's columns split
    across the worker threads, each piece reading x's rows in place (or a
    copy of them at another pitch: :func:`packed.pitched`), adding the
    bias and activating its part while it is in cache (a heavy activation
    after its product)."""
    m, depth, n = x.shape[0], x.shape[1], weight.shape[1]
    rows = packed.pitched(x)
    y = np.empty((m, n), np.float32)
    light = act < program.FIRST_HEAVY
    bias = program.no_bias(np.float32) if bias is None else bias

    def columns(lo, hi):
        first = lo * packed.TILE_COLUMNS
        last = min(hi * packed.TILE_COLUMNS, n)
        packed.multiply_rows(rows, depth, weight.slivers, y, bias,
                             act if light else program.ACT_NONE, (first, last))
        if not light:
            program.columns_kernel(act)(y, program.no_bias(np.float32),
                                        first, last)
    parallel_for(-(-n // packed.TILE_COLUMNS), columns, grain=gemm_items(
        m * depth * packed.TILE_COLUMNS, depth * packed.TILE_COLUMNS * 4))
    return y


def parallel_matmul(x, weight, bias=None, act=program.ACT_NONE):
    """act(x @ weight + bias) for 2-D x, split across the worker threads:
    by rows of x when x has more rows than weight has columns, else by
    blocks of weight's columns, so that each thread packs only its part of
    the weight (BLAS packs the whole right operand for every call). Measured
    with 2 threads: columns are 4-9% faster on transformer shapes (128 x 768
    by 768 x 3072) and 22% on 49 x 4608 by 4608 x 512; rows 1.8x faster on
    3136 x 576 by 576 x 64. A column split is worth it for the weight bytes
    each piece streams as well as for its multiply-adds: a product of a few
    rows is bound by reading the weight (16 x 768 by 768 x 768: 0.64 ms on
    one thread, 0.54 ms on two; 1 x 768 by 768 x 768: 1.29x faster).
    Each piece adds the bias and activates its own part of the product,
    while it is in cache."""
    m, n = x.shape[0], weight.shape[1]
    if m < packed.TILE_ROWS and weight.flags.c_contiguous:
        parts = min(current_threads(), weight.nbytes // STREAM_BYTES)
        if parts > 1:
            return _depth_parts(x, weight, bias, act, parts)
    y = np.empty((m, n), np.result_type(x, weight))
    if n < m:
        def rows(lo, hi):
            blas.matmul(x[lo:hi], weight, y[lo:hi])
            _bias_activation(y[lo:hi], bias, act, 0, n)
        parallel_for(m, rows, grain=min_items(x.shape[1] * n, GEMM_WORK))
        return y

    def columns(lo, hi):
        first, last = lo * COLUMN_BLOCK, min(hi * COLUMN_BLOCK, n)
        blas.matmul(x, weight[:, first:last], y[:, first:last])
        _bias_activation(y, bias, act, first, last)
    block_bytes = x.shape[1] * COLUMN_BLOCK * weight.itemsize
    parallel_for(-(-n // COLUMN_BLOCK), columns,
                 grain=gemm_items(m * x.shape[1] * COLUMN_BLOCK, block_bytes))
    return y


def _depth_parts(x, weight, bias, act, parts):
    """act(x @ weight + bias) for a few rows of x by a C-contiguous weight,
    bound by reading the weight: each thread multiplies a contiguous block
    of its rows (a range of the depth), and the partial products are
    summed. A range of columns each would read every row in part: 1 x
    1280 by 1280 x 1000 (MobileNetV2's classifier), two threads, the
    weight from memory: 0.15 ms against 0.22 (one thread 0.20-0.23)."""
    m, depth, n = x.shape[0], x.shape[1], weight.shape[1]
    partial = np.empty((parts, m, n), np.result_type(x, weight))

    def products(lo, hi):
        for p in range(lo, hi):
            first, last = depth * p // parts, depth * (p + 1) // parts
            blas.matmul(x[:, first:last], weight[first:last], partial[p])
    parallel_for(parts, products)
    y = np.add.reduce(partial, axis=0)
    _bias_activation(y, bias, act, 0, n)
    return y


def _bias_activation(y, bias, act, first, last):
    """In place on columns first..last of y (2-D, contiguous): act(y + bias)
    with bias (N,) along the last axis, or None. A bias alone is one NumPy
    pass (as fast, and a CNN's classifier then compiles no kernel for it)."""
    if act != program.ACT_NONE:
        program.columns_kernel(act)(y, program.no_bias(y.dtype) if bias is None
                                    else bias, first, last)
    elif bias is not None:
        block = y[:, first:last]
        np.add(block, bias[first:last], out=block)


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


def mat_mul(input, mat2, transpose_a=False, transpose_b=False):
    """MatMul: same-dtype float 2-D operands straight to BLAS."""
    require_tensors("MatMul", input=input, mat2=mat2)
    if input.ndim == 2 and mat2.ndim == 2 \
            and program.float_operands(input, mat2) is not None:
        return parallel_matmul(input.T if transpose_a else input,
                               mat2.T if transpose_b else mat2)
    return None


def mat_mul_ext(input, other):
    """MatMulExt: same-dtype float operands straight to np.matmul (BLAS)."""
    if program.float_operands(input, other) is None \
            or not isinstance(input, np.ndarray) \
            or not isinstance(other, np.ndarray):
        return None
    if input.ndim >= 2 and other.ndim == 2 and input.shape[-1] == other.shape[0]:
        flat = program.writable(input).reshape(-1, input.shape[-1])
        return parallel_matmul(flat, other).reshape(input.shape[:-1] + other.shape[1:])
    return np.asarray(np.matmul(input, other))


def dense(input, weight, bias=None):
    """Dense on BLAS through :func:`fused_matmul` (rows split across the
    worker threads, the bias added in the same pass); a 1-D weight, a
    broadcast bias and other dtypes decline."""
    operands = (input, weight) if bias is None else (input, weight, bias)
    if program.float_operands(*operands) is None or weight.ndim != 2 \
            or input.ndim == 0 or input.shape[-1] != weight.shape[1] \
            or (bias is not None and bias.shape != weight.shape[:1]):
        return None
    return fused_matmul(input, weight.T, None if bias is None
                        else program.writable(bias), program.ACT_NONE)


def batch_mat_mul(x, y, transpose_a=False, transpose_b=False):
    """BatchMatMul: same-dtype float operands straight to np.matmul, which
    hands each matrix to BLAS (transposes are strides, not copies)."""
    if x.ndim >= 2 and y.ndim >= 2 and program.float_operands(x, y) is not None:
        return batched_matmul(x.swapaxes(-1, -2) if transpose_a else x,
                              y.swapaxes(-1, -2) if transpose_b else y)
    return None


def transposed_batch_mat_mul(x, y, x_dims, y_dims, transpose_a, transpose_b):
    """BatchMatMul of x and y, each first permuted by its dims (None: as it
    is) through a view, not a copy (passes/gemm.py: a Transpose feeding the
    product); None where a permutation does not fit its operand (the
    caller falls back)."""
    operands = []
    for value, dims in ((x, x_dims), (y, y_dims)):
        if not isinstance(value, np.ndarray) or (
                dims is not None and value.ndim != len(dims)):
            return None
        operands.append(value if dims is None else np.transpose(value, dims))
    return batch_mat_mul(*operands, transpose_a, transpose_b)


def batch_mat_mul_ext(input, mat2):
    """BatchMatMulExt: same-dtype float stacks straight to BLAS, the
    matrices split across the worker threads (:func:`batched_matmul`);
    empty stacks, other dtypes and errors decline."""
    if input.ndim == 3 and mat2.ndim == 3 and input.shape[0] == mat2.shape[0] \
            and input.size and mat2.size \
            and program.float_operands(input, mat2) is not None:
        return batched_matmul(input, mat2)
    return None


# -- LSTM ----------------------------------------------------------------------------
# The input projections of all time steps are one GEMM; each step is then
# one GEMM h @ W_hh.T (BLAS) and one compiled pass for the gates, the cell
# and the output. The reverse direction runs the steps backwards over the
# unreversed input and writes each output at its own time.
@kernel
def lstm_cell(gates_x, gates_h, c, h):
    """One step for every batch row: (i, f, g, o) = gates_x + gates_h
    (N, 4H), c = sigmoid(f) * c + sigmoid(i) * tanh(g), h = sigmoid(o) *
    tanh(c); c updated in place, the new h written to ``h``.

    sigmoid(z) = 1 / (1 + exp(-z)) and tanh(z) = 1 - 2 / (exp(2z) + 1),
    the reference's functions rearranged: Numba's tanh is a scalar libm
    call (float32: 15 times slower than NumPy's vectorised one on this
    project's machine), its exp is fast. Both forms saturate without NaN;
    near 0 they are off by an ulp of 1 (absolute), within the tolerances.
    """
    hidden = c.shape[1]
    one, two = c.dtype.type(1), c.dtype.type(2)
    for n in range(c.shape[0]):
        for j in range(hidden):
            i = gates_x[n, j] + gates_h[n, j]
            f = gates_x[n, hidden + j] + gates_h[n, hidden + j]
            g = gates_x[n, 2 * hidden + j] + gates_h[n, 2 * hidden + j]
            o = gates_x[n, 3 * hidden + j] + gates_h[n, 3 * hidden + j]
            cell = c[n, j] / (one + np.exp(-f)) \
                + (one - two / (np.exp(two * g) + one)) / (one + np.exp(-i))
            c[n, j] = cell
            h[n, j] = (one - two / (np.exp(two * cell) + one)) / (one + np.exp(-o))


def _run_direction(seq, h, c, w_ih, w_hh, bias, reverse):
    """One layer, one direction over seq (T, N, in): (y, h_T, c_T). The
    state h of each step is the step's output row y[t]."""
    steps, batch = seq.shape[:2]
    gates_x = parallel_matmul(seq.reshape(steps * batch, -1), w_ih.T, bias)
    gates_x = gates_x.reshape(steps, batch, -1)
    c = c.copy()
    gates_h = np.empty_like(gates_x[0])
    y = np.empty(seq.shape[:2] + h.shape[-1:], seq.dtype)
    w_t = w_hh.T
    for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
        def rows(lo, hi, now=gates_x[t], h=h, out=y[t]):
            blas.matmul(h[lo:hi], w_t, gates_h[lo:hi])
            lstm_cell(now[lo:hi], gates_h[lo:hi], c[lo:hi], out[lo:hi])
        parallel_for(batch, rows, grain=min_items(w_hh.size, GEMM_WORK))
        h = y[t]
    return y, h, c


def lstm(x, hx, cx, w, input_size, hidden_size, num_layers=1, has_bias=True,
         bidirectional=False, dropout=0.0, proj_size=0):
    """LSTM with BLAS GEMMs and one compiled gate pass per step, in the
    reference's compute dtype (float16 runs in float32); empty inputs
    decline."""
    if x.size == 0 or hx.size == 0:
        return None
    return layers(x, hx, cx, w, input_size, hidden_size, num_layers,
                  has_bias, bidirectional, proj_size, _run_direction)
