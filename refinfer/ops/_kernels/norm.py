"""Mean / variance normalisation shared by the LayerNorm, GroupNorm,
InstanceNorm and BatchNormExt kernels."""
from __future__ import annotations

import numpy as np

from .._ref.common import compute_dtype


def standardize(x: np.ndarray, axes, epsilon):
    """(x - mean) / sqrt(var + epsilon) over ``axes`` (biased variance), in
    the compute dtype (float16 -> float32). Returns (z, mean, var) with
    mean and var keeping the reduced axes as length 1."""
    work = compute_dtype(x.dtype)
    xw = x.astype(work, copy=False)
    mean = xw.mean(axis=axes, keepdims=True)
    var = np.square(xw - mean).mean(axis=axes, keepdims=True)
    z = (xw - mean) / np.sqrt(var + work.type(epsilon))
    return z, mean, var


def affine(z: np.ndarray, weight, bias, shape) -> np.ndarray:
    """z * weight + bias with both reshaped to ``shape`` (None: skipped)."""
    if weight is not None:
        z = z * weight.astype(z.dtype, copy=False).reshape(shape)
    if bias is not None:
        z = z + bias.astype(z.dtype, copy=False).reshape(shape)
    return z


def rstd(var: np.ndarray, epsilon) -> np.ndarray:
    """1 / sqrt(var + epsilon)."""
    return 1.0 / np.sqrt(var + var.dtype.type(epsilon))


# -- numba backend -------------------------------------------------------------
# Every normalisation is a pass over rows of a 2-D view x (R, L) with a
# per-channel weight and bias. The channel of element (r, j) is
# c = ((row0 + r) % groups) * (L // inner) + j // inner, row0 being the
# first row of the slice a worker thread got:
#   channel-first (N, C, *S) per channel (BatchNorm, BiasAdd, InstanceNorm):
#       rows (n, c), groups = C, inner = L;
#   GroupNorm: rows (n, g), groups = G, inner = prod(S);
#   channel-last (N, ..., C) and LayerNorm: rows of C, groups = 1, inner = 1.
# One compiled kernel per dtype serves each of: row statistics + affine
# (:func:`normalize_rows`), given statistics + affine (:func:`affine_rows`)
# and statistics alone (:func:`row_moments`).
from refinfer.jit import kernel  # noqa: E402
from refinfer.threads import min_items, parallel_for  # noqa: E402

from . import program as _fast  # noqa: E402


LANES = 8   # partial sums per row: one chain of dependent float64
            # additions would be latency-bound, 8 lanes vectorise


@kernel
def centered_sums(x, r, center, lanes):
    """(sum d, sum d^2) over row r for d = x[r, j] - center (in x's
    dtype), accumulated in float64 in LANES partial sums (lanes: a
    (2, LANES) float64 work array)."""
    lanes[:] = 0.0
    count = np.uint64(x.shape[1])
    full = count - count % np.uint64(LANES)
    for k in range(np.uint64(0), full, np.uint64(LANES)):
        for u in range(np.uint64(LANES)):
            d = np.float64(x[r, k + u] - center)
            lanes[0, u] += d
            lanes[1, u] += d * d
    for k in range(full, count):
        d = np.float64(x[r, k] - center)
        lanes[0, 0] += d
        lanes[1, 0] += d * d
    return lanes[0].sum(), lanes[1].sum()


@kernel
def _moments(x, r, lanes):
    """(mean, biased variance) of row r of x, two passes accumulated in
    float64 and rounded to x's dtype, as the reference's mean and
    mean((x - mean)^2)."""
    count = x.shape[1]
    total, _ = centered_sums(x, r, x.dtype.type(0), lanes)
    m = x.dtype.type(total / count)
    _, square = centered_sums(x, r, m, lanes)
    return m, x.dtype.type(square / count)


@kernel
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


@kernel
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
    lanes = np.empty((2, LANES), np.float64)
    for r in range(x.shape[0]):
        m, v = _moments(x, r, lanes)
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
    lanes = np.empty((2, LANES), np.float64)
    for r in range(x.shape[0]):
        mean[r], var[r] = _moments(x, r, lanes)


def rows_of(x: np.ndarray, rows: int) -> np.ndarray:
    """x as a C-contiguous (rows, L) array (a copy only if needed)."""
    return _fast.writable(x).reshape(rows, -1)


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
        return _fast.no_bias(dtype)
    return _fast.flat(value)


def fits(x, size: int, *vectors) -> bool:
    """x is a non-empty float32/float64 tensor and every vector is None or
    of x's dtype with ``size`` elements (what the kernels above take)."""
    given = [v for v in vectors if v is not None]
    return _fast.float_operands(x, *given) is not None and x.ndim > 0 \
        and x.size > 0 and all(isinstance(v, np.ndarray) and v.size == size
                               for v in given)
