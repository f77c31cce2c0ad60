"""Normalisation kernels (``numba`` backend of BatchNorm, BatchNormExt,
BiasAdd, GroupNorm, InstanceNorm, LayerNorm, LayerNormExt, L2Normalize,
Softmax, LogSoftmax and LogSoftmaxExt).

Every normalisation is a pass over rows of a 2-D view x (R, L) with a
per-channel weight and bias. The channel of element (r, j) is
c = ((row0 + r) % groups) * (L // inner) + j // inner, row0 being the
first row of the slice a worker thread got:
  channel-first (N, C, *S) per channel (BatchNorm, BiasAdd, InstanceNorm):
      rows (n, c), groups = C, inner = L;
  GroupNorm: rows (n, g), groups = G, inner = prod(S);
  channel-last (N, ..., C) and LayerNorm: rows of C, groups = 1, inner = 1.
One compiled kernel per dtype serves each of: row statistics + affine
(:func:`normalize_rows`), given statistics + affine (:func:`affine_rows`)
and statistics alone (:func:`row_moments`).
"""
from __future__ import annotations

import math

import numpy as np

from refinfer.jit import inlined, kernel
from refinfer.threads import min_items, parallel_for

from . import program
from . import reduce
from .libm import fast_exp, reassociated, sum64
from .vectors import greatest
from .._ref.common import cast, require_tensors
from .._ref.norm import rstd


@reassociated
def centered_sums(x, r, center):
    """(sum d, sum d^2) over row r for d = x[r, j] - center (in x's
    dtype), accumulated in float64 and added in any order, which lets LLVM
    split the sums over SIMD lanes (4.5x faster than eight partial sums
    kept in an array: 128 rows of 768, 75 -> 17 us)."""
    total, square = 0.0, 0.0
    for j in range(x.shape[1]):
        d = np.float64(x[r, j] - center)
        total += d
        square += d * d
    return total, square


@inlined
def _moments(x, r):
    """(mean, biased variance) of row r of x, two passes accumulated in
    float64 and rounded to x's dtype, as the reference's mean and
    mean((x - mean)^2)."""
    count = x.shape[1]
    total, _ = centered_sums(x, r, x.dtype.type(0))
    m = x.dtype.type(total / count)
    _, square = centered_sums(x, r, m)
    return m, x.dtype.type(square / count)


@inlined
def _affine_row(x, y, r, m, s, weight, bias, first, inner):
    """y[r, j] = (x[r, j] - m) * s * weight[c] + bias[c] for c = first +
    j // inner, rounded step by step in the reference's order (an empty
    weight / bias counts as 1 / 0; with inner == 1 both must be given:
    :func:`channel_vectors`)."""
    if inner == 1:      # a channel per element: one loop along the row
        base = np.uint64(first)
        for j in range(np.uint64(x.shape[1])):
            y[r, j] = (x[r, j] - m) * s * weight[base + j] + bias[base + j]
        return
    zero, one = x.dtype.type(0), x.dtype.type(1)
    for k in range(x.shape[1] // inner):
        w = weight[first + k] if weight.size else one
        b = bias[first + k] if bias.size else zero
        base = np.uint64(k * inner)
        for j in range(np.uint64(inner)):
            y[r, base + j] = (x[r, base + j] - m) * s * w + b


@inlined
def _first_channel(x, r, row0, groups, inner):
    return ((row0 + r) % groups) * (x.shape[1] // inner)


@kernel
def normalize_rows(x, y, weight, bias, row0, groups, inner, epsilon, mean,
                   var):
    """Each row normalised by its own statistics:
    y = (x - mean) * rstd * weight[c] + bias[c], rstd = 1 / sqrt(var +
    epsilon) in x's dtype (mean and var stored per row; the reference
    divides by sqrt(var + epsilon): a multiplication is cheaper, within an
    ulp)."""
    one, eps = x.dtype.type(1), x.dtype.type(epsilon)
    for r in range(x.shape[0]):
        m, v = _moments(x, r)
        s = one / np.sqrt(v + eps)
        mean[r], var[r] = m, v
        _affine_row(x, y, r, m, s, weight, bias,
                    _first_channel(x, r, row0, groups, inner), inner)


@kernel
def affine_rows(x, y, center, scale, weight, bias, row0, groups, inner):
    """y = (x - center[r]) * scale[r] * weight[c] + bias[c] (an empty
    center / scale / weight / bias counts as 0 / 1 / 1 / 0)."""
    zero, one = x.dtype.type(0), x.dtype.type(1)
    for r in range(x.shape[0]):
        m = center[r] if center.size else zero
        s = scale[r] if scale.size else one
        _affine_row(x, y, r, m, s, weight, bias,
                    _first_channel(x, r, row0, groups, inner), inner)


@kernel
def row_moments(x, mean, var):
    """mean[r], var[r] = the mean and biased variance of row r of x."""
    for r in range(x.shape[0]):
        mean[r], var[r] = _moments(x, r)


def rows_of(x: np.ndarray, rows: int) -> np.ndarray:
    """x as a C-contiguous (rows, L) array (a copy only if needed)."""
    return program.writable(x).reshape(rows, -1)


def normalize(x2, weight, bias, groups, inner, epsilon):
    """(y, mean, var) of :func:`normalize_rows` over x2 (R, L), rows split
    across the worker threads; weight / bias None or contiguous.
    :func:`rstd` (var, epsilon) gives the kernel's rstd bit for bit."""
    y = np.empty(x2.shape, x2.dtype)
    mean, var = np.empty(x2.shape[0], x2.dtype), np.empty(x2.shape[0], x2.dtype)
    weight, bias = channel_vectors(weight, bias, groups, inner, x2)

    def rows(lo, hi):
        normalize_rows(x2[lo:hi], y[lo:hi], weight, bias, lo, groups, inner,
                       float(epsilon), mean[lo:hi], var[lo:hi])
    parallel_for(x2.shape[0], rows, grain=min_items(x2.shape[1]))
    return y, mean, var


def affine_pass(x2, center, scale, weight, bias, groups, inner):
    """y of :func:`affine_rows` over x2 (R, L); center and scale per row,
    weight and bias per channel (each None or contiguous)."""
    y = np.empty(x2.shape, x2.dtype)
    center, scale = _vector(center, x2.dtype), _vector(scale, x2.dtype)
    weight, bias = channel_vectors(weight, bias, groups, inner, x2)

    def rows(lo, hi):
        affine_rows(x2[lo:hi], y[lo:hi], center[lo:hi] if center.size else center,
                    scale[lo:hi] if scale.size else scale, weight, bias, lo,
                    groups, inner)
    parallel_for(x2.shape[0], rows, grain=min_items(x2.shape[1]))
    return y


def channel_moments(x3):
    """Per-channel mean and biased variance of x3 (N, C, L) over N and L:
    row statistics combined (equal row sizes: the mean of the means, the
    mean of var + (row mean - mean)^2), in x3's dtype."""
    x2 = x3.reshape(-1, x3.shape[2])
    mean, var = np.empty(x2.shape[0], x2.dtype), np.empty(x2.shape[0], x2.dtype)
    parallel_for(x2.shape[0], lambda lo, hi: row_moments(
        x2[lo:hi], mean[lo:hi], var[lo:hi]), grain=min_items(x2.shape[1]))
    means = mean.reshape(x3.shape[:2]).astype(np.float64)
    total = means.mean(axis=0)
    spread = (var.reshape(x3.shape[:2]) + np.square(means - total)).mean(axis=0)
    return total.astype(x3.dtype), spread.astype(x3.dtype)


def channel_vectors(weight, bias, groups, inner, x2):
    """weight and bias as :func:`_affine_row` takes them for rows x2:
    contiguous, empty for None, but ones / zeros (one per channel) when
    ``inner`` is 1 (the element-wise loop then needs no branches to
    vectorise)."""
    if inner == 1:
        channels = groups * x2.shape[1]
        weight = np.ones(channels, x2.dtype) if weight is None else weight
        bias = np.zeros(channels, x2.dtype) if bias is None else bias
    return _vector(weight, x2.dtype), _vector(bias, x2.dtype)


def _vector(value, dtype) -> np.ndarray:
    """A per-row or per-channel operand as a contiguous 1-D array (empty
    for None)."""
    if value is None:
        return program.no_bias(dtype)
    return program.flat(value)


def fits(x, size: int, *vectors) -> bool:
    """x is a non-empty float32/float64 tensor and every vector is None or
    of x's dtype with ``size`` elements (what the kernels above take)."""
    given = [v for v in vectors if v is not None]
    return program.float_operands(x, *given) is not None and x.ndim > 0 \
        and x.size > 0 and all(isinstance(v, np.ndarray) and v.size == size
                               for v in given)


# -- L2Normalize ---------------------------------------------------------------------
@kernel
def l2_normalize_lines(x, y, epsilon, j0, j1):
    """x (A, K, J): y[a, :, j] = x[a, :, j] / sqrt(max(sum_k x[a, k, j]^2,
    epsilon)) for j0 <= j < j1, the sums accumulated in float64 and rounded
    to x's dtype (a NaN sum propagates, as np.maximum's)."""
    eps = x.dtype.type(epsilon)
    if x.shape[2] == 1:     # contiguous lines: partial sums along each
        _normalize_rows(x.reshape(x.shape[0], x.shape[1]),
                        y.reshape(y.shape[0], y.shape[1]), eps)
        return
    width, first = np.uint64(j1 - j0), np.uint64(j0)
    total, norm = np.empty(width, np.float64), np.empty(width, x.dtype)
    for a in range(x.shape[0]):
        total[:] = 0.0      # a sum per column, the columns vectorised
        for k in range(x.shape[1]):
            for j in range(width):
                v = np.float64(x[a, k, first + j])
                total[j] += v * v
        for j in range(width):
            norm[j] = _norm_of(x.dtype.type(total[j]), eps)
        for k in range(x.shape[1]):
            for j in range(width):
                y[a, k, first + j] = x[a, k, first + j] / norm[j]


@inlined
def _normalize_rows(x, y, eps):
    """The J = 1 case: each row of x (A, K) divided by its norm."""
    for a in range(x.shape[0]):
        total = centered_sums(x, a, x.dtype.type(0))[1]
        norm = _norm_of(x.dtype.type(total), eps)
        for k in range(x.shape[1]):
            y[a, k] = x[a, k] / norm


@inlined
def _norm_of(total, eps):
    """sqrt(max(total, eps)), NaN propagating."""
    return np.sqrt(total if total >= eps or total != total else eps)


def l2_normalize(x, axis=(0,), epsilon=1e-4):
    """L2Normalize in two compiled passes over (outer, axis, inner) lines,
    split across the worker threads by outer blocks (or, with a single
    one, by inner columns); other dtypes decline."""
    if len(axis) != 1 or program.float_operands(x) is None or x.size == 0 \
            or not -x.ndim <= axis[0] < x.ndim:
        return None
    a = axis[0] % x.ndim
    outer = math.prod(x.shape[:a])
    x3 = program.writable(x).reshape(outer, x.shape[a], -1)
    y = np.empty(x3.shape, x.dtype)
    line = x3.shape[1] * x3.shape[2]
    if outer > 1:
        parallel_for(outer, lambda lo, hi: l2_normalize_lines(
            x3[lo:hi], y[lo:hi], float(epsilon), 0, x3.shape[2]),
            grain=min_items(line))
    else:
        parallel_for(x3.shape[2], lambda lo, hi: l2_normalize_lines(
            x3, y, float(epsilon), lo, hi), grain=min_items(x3.shape[1]))
    return y.reshape(x.shape)


# -- Softmax -------------------------------------------------------------------------
@kernel
def softmax_rows(x, y, log):
    """Each row of x (R, C): y = exp(x - max) / sum(exp(x - max)), or with
    ``log`` y = (x - max) - log(sum(exp(x - max))) (:func:`_softmax_row`).
    x is C-contiguous (its rows' maxima are taken in vectors:
    :func:`vectors.greatest`) and is not y (in place, the loops do not
    vectorise: 7x slower)."""
    for r in range(x.shape[0]):
        _softmax_row(x, y, r, log)


@kernel
def masked_softmax_rows(s, p, scale, mask, first, queries):
    """Attention's probabilities: row r of p (R, C) = the softmax of s[r]
    * scale + m, m the mask's row for query i = r % queries of head g =
    first + r // queries: mask (G, M, C) C-contiguous, its row
    mask[g if G > 1 else 0, i if M > 1 else 0] (a mask broadcast over the
    heads, or over the queries, is stored once). s is overwritten with
    the masked scores; s and p are C-contiguous and distinct."""
    for r in range(s.shape[0]):
        head, i = divmod(r, queries)
        m = mask[first + head if mask.shape[0] > 1 else 0,
                 i if mask.shape[1] > 1 else 0]
        for j in range(s.shape[1]):
            s[r, j] = s[r, j] * scale + m[j]
        _softmax_row(s, p, r, False)


@inlined
def _softmax_row(x, y, r, log):
    """Row r of y = softmax (or with ``log`` log-softmax) of row r of x.
    exp is :func:`libm.fast_exp` (within 2 ulp) in a loop of its own, so
    that it vectorises; sums accumulate in float64 (:func:`libm.sum64`).
    Exponentials below e times the dtype's smallest normal number are
    flushed to zero (an absolute error under 4e-38 in float32, in a sum of
    at least 1): subnormal arithmetic is slow, and a masked attention row
    is half entries -1e4 below its top (12 x 128 rows of 128: 535 against
    313 us). A NaN anywhere in a row makes the sum, hence the whole row,
    NaN (as in the reference)."""
    zero = y.dtype.type(0)
    lowest = y.dtype.type(np.log(np.finfo(y.dtype).tiny) + 1)
    row, out = x[r], y[r]
    top = greatest(x, r * row.shape[0], row.shape[0])
    # d <= lowest is False for a NaN, which then propagates to the sum
    for j in range(row.shape[0]):
        d = row[j] - top
        e = fast_exp(lowest if d <= lowest else d)
        out[j] = zero if d <= lowest else e
    total = sum64(out)
    if log:
        shift = out.dtype.type(np.log(total))
        for j in range(row.shape[0]):
            out[j] = (row[j] - top) - shift
    else:
        norm = out.dtype.type(total)
        for j in range(row.shape[0]):
            out[j] = out[j] / norm


def _last_axis_rows(x, axis, log):
    """Softmax / LogSoftmax of float32/float64 x along its last axis with
    :func:`softmax_rows`; other axes and dtypes decline."""
    if program.float_operands(x) is None or x.ndim == 0 or len(axis) != 1 \
            or axis[0] not in (-1, x.ndim - 1) or x.size == 0:
        return None
    x2 = program.writable(x).reshape(-1, x.shape[-1])
    y = np.empty(x2.shape, x.dtype)
    parallel_for(x2.shape[0], lambda lo, hi: softmax_rows(x2[lo:hi], y[lo:hi], log),
                 grain=min_items(x2.shape[1]))
    return y.reshape(x.shape)


def softmax(input, axis=(-1,)):
    """Softmax along the last axis, one pass per row (see softmax_rows)."""
    return _last_axis_rows(input, axis, False)


def log_softmax(logits, axis=(-1,)):
    """LogSoftmax along the last axis, one pass per row."""
    return _last_axis_rows(logits, axis, True)


def log_softmax_ext(input, dim=None, dtype=None):
    """LogSoftmaxExt of float32/float64 tensors along any dim without moving
    it (max, sum of exponentials, then the output, per row or column
    block: :func:`reduce.log_softmax`); float16 declines."""
    work = input if dtype is None else cast(input, dtype)
    axis = dim if dim is not None else 0 if work.ndim in (0, 1, 3) else 1
    return reduce.log_softmax(work, int(axis))


# -- the normalisations ----------------------------------------------------------------
def batch_norm(x, scale, bias, mean, variance, is_training=False,
               epsilon=1e-5, momentum=0.1, data_format="NCHW"):
    """BatchNorm as one compiled pass y = x * inv[c] + shift[c], inv and
    shift precomputed as the reference does (training: from the batch's
    statistics, one more pass); other dtypes decline."""
    axis = x.ndim - 1 if data_format == "NHWC" else 1
    if x.ndim < 2 or not fits(x, x.shape[axis], scale, bias, mean,
                              variance):
        return None
    channels, last = x.shape[axis], axis == x.ndim - 1
    x2 = rows_of(x, x.size // channels if last else x.shape[0] * channels)
    extra = tuple(np.zeros(scale.shape, scale.dtype) for _ in range(4))
    if is_training:
        mean, variance = channel_moments(
            x2.T.copy()[None] if last else x2.reshape(x.shape[0], channels, -1))
        extra = extra[:2] + (mean, variance)
    inv = scale / np.sqrt(variance + x.dtype.type(epsilon))
    shift = bias - mean * inv
    if last:        # rows of channels
        y = affine_pass(x2, None, None, inv, shift, 1, 1)
    else:           # a row per (sample, channel)
        y = affine_pass(x2, None, np.tile(inv, x.shape[0]), None, shift,
                        channels, x2.shape[1])
    return (y.reshape(x.shape),) + extra


def batch_norm_ext(input, weight=None, bias=None, running_mean=None,
                   running_var=None, training=False, momentum=0.1,
                   epsilon=1e-5):
    """BatchNormExt as one compiled pass per (sample, channel) row,
    y = (x - mean[c]) * rstd[c] * weight[c] + bias[c] (batch statistics:
    one more pass); other dtypes decline."""
    if input.ndim < 2 or not fits(input, input.shape[1], weight, bias,
                                  running_mean, running_var):
        return None
    n, c = input.shape[:2]
    x2 = rows_of(input, n * c)
    if training or running_mean is None or running_var is None:
        mean, var = channel_moments(x2.reshape(n, c, -1))
    else:
        mean, var = running_mean.reshape(-1), running_var.reshape(-1)
    inv = rstd(var, epsilon)
    y = affine_pass(x2, np.tile(mean, n), np.tile(inv, n), weight, bias, c,
                    x2.shape[1])
    return y.reshape(input.shape), mean.copy(), inv


def bias_add(input_x, bias, data_format="NCHW"):
    """BiasAdd as one compiled pass over (sample, channel) rows
    (affine_rows); channel-last, NumPy's broadcast add (one ufunc
    pass along contiguous channels is as fast); integers and mixed dtypes
    decline."""
    require_tensors("BiasAdd", input_x=input_x, bias=bias)
    last = data_format == "NHWC"
    if input_x.ndim < 2 or bias.ndim != 1 or not fits(
            input_x, input_x.shape[-1 if last else 1], bias):
        return None
    if last or input_x.ndim == 2:
        return np.add(input_x, bias)
    channels = bias.shape[0]
    x2 = rows_of(input_x, input_x.shape[0] * channels)
    y = affine_pass(x2, None, None, None, bias, channels, x2.shape[1])
    return y.reshape(input_x.shape)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """GroupNorm, one row kernel pass per (sample, group)
    (normalize_rows); other dtypes decline."""
    groups = int(num_groups)
    if input.ndim < 2 or groups <= 0 or input.shape[1] % groups \
            or not fits(input, input.shape[1], weight, bias):
        return None
    n, c = input.shape[:2]
    x2 = rows_of(input, n * groups)
    y, mean, var = normalize(x2, weight, bias, groups,
                             x2.shape[1] // (c // groups), eps)
    return (y.reshape(input.shape), mean.reshape(n, groups),
            rstd(var, eps).reshape(n, groups))


def instance_norm(input_x, gamma, beta, mean, variance, epsilon=1e-5,
                  momentum=0.1):
    """InstanceNorm, one row kernel pass per (sample, channel)
    (normalize_rows); other dtypes decline."""
    if input_x.ndim < 2 or not fits(input_x, input_x.shape[1], gamma, beta):
        return None
    x2 = rows_of(input_x, input_x.shape[0] * input_x.shape[1])
    y, _, _ = normalize(x2, gamma, beta, input_x.shape[1], x2.shape[1],
                        epsilon)
    return y.reshape(input_x.shape), mean.copy(), variance.copy()


def layer_norm(input_x, gamma, beta, begin_norm_axis=1,
               begin_params_axis=1, epsilon=1e-7):
    """LayerNorm of float32/float64 rows, with gamma and beta over the same
    trailing axes (the usual case), one row kernel pass per normalised row
    (normalize_rows); anything else declines."""
    rank = input_x.ndim
    start = int(begin_norm_axis) % rank if rank else 0
    if rank == 0 or int(begin_params_axis) % rank != start \
            or gamma.shape != input_x.shape[start:] or beta.shape != gamma.shape \
            or not fits(input_x, gamma.size, gamma, beta):
        return None
    x2 = rows_of(input_x, input_x.size // gamma.size)
    y, mean, var = normalize(x2, gamma, beta, 1, 1, epsilon)
    kept = input_x.shape[:start] + (1,) * (rank - start)
    return y.reshape(input_x.shape), mean.reshape(kept), var.reshape(kept)


def layer_norm_ext(input, normalized_shape, weight=None, bias=None,
                   eps=1e-5):
    """LayerNormExt, one row kernel pass per normalised row
    (normalize_rows); other dtypes decline."""
    count = len(normalized_shape)
    size = math.prod(normalized_shape)
    if tuple(input.shape[input.ndim - count:]) != tuple(normalized_shape) \
            or not fits(input, size, weight, bias):
        return None
    x2 = rows_of(input, input.size // size)
    y, mean, var = normalize(x2, weight, bias, 1, 1, eps)
    kept = input.shape[:input.ndim - count] + (1,) * count
    return (y.reshape(input.shape), mean.reshape(kept),
            rstd(var, eps).reshape(kept))
