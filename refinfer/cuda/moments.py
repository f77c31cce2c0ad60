"""The ``cuda`` kernels of the reductions no other runner has (LogSumExp,
Nansum, Std, ReduceStd, LpNorm, Trace, Cdist): one thread per output
element, looping over the reduced elements of any set of axes in float64
(the result rounded to the input's dtype). float32 and float64 inputs,
float16 for LogSumExp, Std, ReduceStd and LpNorm as float32 (their
references compute it so: refinfer/cuda/half.py); integers and axes the
reference refuses are declined (the CPU kernel then gives the result or
the reference's error). Importing this module declares them."""
from __future__ import annotations

import functools
import math

import numpy as np

from refinfer import registry
from refinfer.ops._ref.reduce import reduce_axes

from . import device
from .device import cuda, dmath
from .half import in_float32

DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
LOG_SUM_EXP, NAN_SUM, DEVIATION, P_NORM = range(4)


@device.device_function
def offset(index, shape, strides):
    """The flat offset of the ``index``-th element (C order) of a box of
    ``shape`` whose axes step by ``strides``."""
    offset = 0
    for axis in range(shape.size - 1, -1, -1):
        offset += (index % shape[axis]) * strides[axis]
        index //= shape[axis]
    return offset


@device.jit
def _reduce(x, layout, op, param, out, second):
    """out[o] = the ``op`` of the elements of x (flat) that output o reduces;
    layout rows: kept shape, kept strides, reduced shape, reduced strides.
    LOG_SUM_EXP: m + log(sum(exp(x - m))), m the maximum (0 where not
    finite). NAN_SUM: the sum, NaN counted as 0. DEVIATION: sqrt(sum((x -
    mean) ** 2) / (n - param)), the mean in ``second``. P_NORM: the count
    of nonzeros (param 0), else sum(|x| ** param) ** (1 / param)."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    kept, kept_strides = layout[0], layout[1]
    reduced, reduced_strides = layout[2], layout[3]
    count = 1
    for axis in range(reduced.size):
        count *= reduced[axis]
    for o in range(start, out.size, stride):
        base = offset(o, kept, kept_strides)
        total, peak = 0.0, -math.inf
        for r in range(count):
            value = x[base + offset(r, reduced, reduced_strides)] * 1.0
            if op == LOG_SUM_EXP:
                if value > peak or value != value:
                    peak = value
            elif op == NAN_SUM:
                total += 0.0 if value != value else value
            elif op == DEVIATION:
                total += value
            elif param == 0:
                total += 0.0 if value == 0 else 1.0
            else:
                total += abs(value) ** param
        if op == LOG_SUM_EXP:
            shift = peak if math.isfinite(peak) else 0.0
            for r in range(count):
                total += dmath.exp(x[base + offset(r, reduced, reduced_strides)] - shift)
            out[o] = dmath.log(total) + shift
        elif op == DEVIATION:
            mean, squares = total / count, 0.0
            for r in range(count):
                gap = x[base + offset(r, reduced, reduced_strides)] - mean
                squares += gap * gap
            divisor = count - param
            if divisor > 0:
                out[o] = dmath.sqrt(squares / divisor)
            else:       # NumPy's 0 divisor: inf, or NaN for 0 / 0
                out[o] = math.inf if squares > 0 else math.nan
            second[o] = mean
        elif op == P_NORM and param != 0:
            out[o] = total ** (1 / param)
        else:
            out[o] = total


@functools.lru_cache(maxsize=256)
def _layout(shape: tuple, axes: tuple):
    """The device copy of the (4, ndim) layout of reducing ``axes`` of a
    C-contiguous ``shape`` (rows padded with a length-1 axis)."""
    strides = [math.prod(shape[k + 1:]) for k in range(len(shape))]
    kept = [k for k in range(len(shape)) if k not in axes]
    width = max(len(shape), 1)
    rows = [[shape[k] for k in kept], [strides[k] for k in kept],
            [shape[k] for k in axes], [strides[k] for k in axes]]
    table = np.array([row + [1] * (width - len(row)) if len(row) < width else row
                      for row in rows], np.int64)
    return device.to_device(table)


def reduce(x, axes, keepdim: bool, op: int, param=0.0, with_mean=False):
    """The reduction ``op`` of device array ``x`` over ``axes`` (None or
    (): every axis): the output (and the mean, ``with_mean``) in x's
    dtype; None for other dtypes, axes the reference refuses, and an
    empty x (whose means divide by a count of 0)."""
    if x.dtype not in DTYPES or not x.size:
        return None
    try:
        axes = reduce_axes(axes, x.ndim)
    except (TypeError, ValueError):
        return None
    shape = tuple(x.shape)
    kept = tuple(1 if k in axes else n for k, n in enumerate(shape)) if keepdim \
        else tuple(n for k, n in enumerate(shape) if k not in axes)
    out, mean = device.empty(kept, x.dtype), device.empty(kept, x.dtype)
    if out.size:
        device.launch(_reduce, out.size, x.reshape(-1), _layout(shape, axes), op,
                      float(param), out.reshape(-1), mean.reshape(-1))
    if not with_mean:
        device.release(mean)
    return (out, mean) if with_mean else out


def log_sum_exp(input, dim, keepdim=False):
    """LogSumExp."""
    return reduce(input, dim, keepdim, LOG_SUM_EXP)


def nansum(input, dim=None, keepdim=False, dtype=None):
    """Nansum of float32/float64 in its own dtype."""
    if dtype is not None and np.dtype(dtype) != input.dtype:
        return None
    return reduce(input, dim, keepdim, NAN_SUM)


def std(input, dim=None, correction=1, keepdim=False):
    """Std: the deviation with ``correction`` subtracted from the count."""
    return reduce(input, dim, keepdim, DEVIATION, float(correction))


def reduce_std(x, axis=(), unbiased=True, keep_dims=False):
    """ReduceStd's (std, mean)."""
    return reduce(x, axis, keep_dims, DEVIATION, float(int(unbiased)), with_mean=True)


def lp_norm(input, axis, p=2, keep_dims=False, epsilon=1e-12):
    """LpNorm; an empty axis list (which reduces nothing) is declined."""
    if not len(axis):
        return None
    return reduce(input, tuple(int(a) for a in axis), keep_dims, P_NORM, float(p))


@device.device_function
def _smaller(a, b):
    """The smaller length (numba.cuda 0.68 fails to compile min(a, b))."""
    return a if a < b else b


@device.jit
def _trace(x, out):
    """out[()] = the sum of x's main diagonal (one thread)."""
    if cuda.grid(1) == 0:
        total = x[0, 0] * 0
        for i in range(_smaller(x.shape[0], x.shape[1])):
            total += x[i, i]
        out[0] = total


def trace(input):
    """Trace of a non-empty 2-D matrix: a 0-d array of its dtype."""
    if (input.ndim != 2 or not input.size or input.dtype == np.float16
            or input.dtype.kind == "b"):
        return None
    out = device.empty((), input.dtype)
    device.launch(_trace, 1, input, out.reshape(1))
    return out


@device.jit
def _distances(x1, x2, p, out):
    """out[b, i, j] = (sum_k |x1[b, i, k] - x2[b, j, k]| ** p) ** (1 / p);
    the count of differing k for p = 0, the largest difference for p = inf."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    rows, columns, width = out.shape[1], out.shape[2], x1.shape[2]
    for o in range(start, out.size, stride):
        b, i, j = o // (rows * columns), (o // columns) % rows, o % columns
        total = 0.0
        for k in range(width):
            gap = abs(x1[b, i, k] * 1.0 - x2[b, j, k])
            if p == 0:
                total += 0.0 if gap == 0 else 1.0
            elif p == math.inf:
                total = gap if gap > total or gap != gap else total
            else:
                total += gap ** p
        out[b, i, j] = total if p == 0 or p == math.inf else total ** (1 / p)


def cdist(x1, x2, p=2.0):
    """Cdist on the device; None where the reference refuses the shapes or
    p, and for other dtypes than float32 and float64."""
    shape1, shape2 = tuple(x1.shape), tuple(x2.shape)
    p = float(p)
    if (x1.dtype not in DTYPES or x1.ndim < 2 or x1.ndim != x2.ndim
            or shape1[-1] != shape2[-1] or shape1[:-2] != shape2[:-2] or p < 0):
        return None
    batch = math.prod(shape1[:-2])
    out = device.empty(shape1[:-1] + (shape2[-2],), x1.dtype)
    if out.size:
        device.launch(_distances, out.size, x1.reshape(batch, *shape1[-2:]),
                      x2.reshape(batch, *shape2[-2:]), p,
                      out.reshape(batch, shape1[-2], shape2[-2]))
    return out


KERNELS = {"LogSumExp": in_float32(log_sum_exp), "Nansum": nansum,
           "Std": in_float32(std), "ReduceStd": in_float32(reduce_std),
           "LpNorm": in_float32(lp_norm), "Trace": trace, "Cdist": cdist}
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"reduce, {dtype}", _reduce,
        f"void({dtype}[::1], int64[:, ::1], int64, float64, {dtype}[::1], {dtype}[::1])")
       for dtype in ("float32", "float64")]
PTX += [("trace, int8", _trace, "void(int8[:, ::1], int8[::1])"),
        ("trace, float32", _trace, "void(float32[:, ::1], float32[::1])"),
        ("distances, float32", _distances,
         "void(float32[:, :, ::1], float32[:, :, ::1], float64, float32[:, :, ::1])")]
