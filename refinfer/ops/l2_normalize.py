"""L2Normalize."""
import math

import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, compute_dtype


@register("L2Normalize", family="nn", dtypes=FLOATS,
          convert={"axis": args.ints, "epsilon": args.scalar})
def l2_normalize(x, axis=(0,), epsilon=1e-4):
    """Scale to unit L2 norm along an axis: y = x / sqrt(max(sum(x^2), eps)).

    Arguments (classic PRIMITIVE): x; attributes axis (an int, or a list /
    tuple of one axis, negative allowed; default 0) and epsilon=1e-4
    (verified on MindSpore 2.7.1 CPU: [0.001, 0] normalises to [0.1, 0]).
    dtypes: float16 (computed in float32), float32, float64.
    """
    if len(axis) != 1:
        raise ValueError(f"L2Normalize: one axis expected, got {axis}")
    work = compute_dtype(x.dtype)
    xw = x.astype(work, copy=False)
    total = np.square(xw).sum(axis=axis[0], keepdims=True)
    return (xw / np.sqrt(np.maximum(total, work.type(epsilon)))
            ).astype(x.dtype, copy=False)


# -- numba backend -------------------------------------------------------------
from refinfer.jit import kernel  # noqa: E402
from refinfer.registry import register_kernel  # noqa: E402
from refinfer.threads import min_items, parallel_for  # noqa: E402

from ._kernels import program as _fast  # noqa: E402
from ._kernels.norm import LANES, centered_sums  # noqa: E402


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


@kernel
def _normalize_rows(x, y, eps):
    """The J = 1 case: each row of x (A, K) divided by its norm."""
    lanes = np.empty((2, LANES), np.float64)
    for a in range(x.shape[0]):
        total = centered_sums(x, a, x.dtype.type(0), lanes)[1]
        norm = _norm_of(x.dtype.type(total), eps)
        for k in range(x.shape[1]):
            y[a, k] = x[a, k] / norm


@kernel
def _norm_of(total, eps):
    """sqrt(max(total, eps)), NaN propagating."""
    return np.sqrt(total if total >= eps or total != total else eps)


@register_kernel("L2Normalize", "numba")
def l2_normalize_numba(x, axis=(0,), epsilon=1e-4):
    """L2Normalize in two compiled passes over (outer, axis, inner) lines,
    split across the worker threads by outer blocks (or, with a single
    one, by inner columns); other dtypes through the reference."""
    if len(axis) != 1 or _fast.float_operands(x) is None or x.size == 0 \
            or not -x.ndim <= axis[0] < x.ndim:
        return l2_normalize(x, axis, epsilon)
    a = axis[0] % x.ndim
    outer = math.prod(x.shape[:a])
    x3 = _fast.writable(x).reshape(outer, x.shape[a], -1)
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
