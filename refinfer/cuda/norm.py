"""The ``cuda`` kernels of the normalisations: Softmax, LogSoftmax,
LogSoftmaxExt (any one axis), LayerNorm, LayerNormExt, GroupNorm,
InstanceNorm, BatchNorm and BatchNormExt (inference, and training with the
batch's statistics), L2Normalize, and BiasAdd (a bias per channel),
declared in :data:`KERNELS`.

Each is a row kernel: a row is one index of the kept axes, its elements
those of the normalised axes, read through strides (layout.split_axes,
layout.offset: any axes, no transpose first). A thread takes a row in a
grid-stride loop and reads it twice: once for its statistics (max and
sum of exponentials; mean, then the biased variance around it, as the
references; sum of squares), once to write every element, in the compute
dtype (float16 in float32). Scale and shift parameters are read at the
element's position through their broadcast strides, so one kernel serves
LayerNorm's trailing parameters and GroupNorm's per-channel ones. BatchNorm
with the given statistics and BiasAdd are elementwise: kernels of their
own.

A thread per row keeps the kernel simple and is what the simulator runs
fast; rows of thousands of elements on a GPU want a block per row with a
shared-memory reduction, as refinfer/cuda/reduce.py does (left for the GPU
measurements). Dtype changes (LogSoftmaxExt's ``dtype``), operands of
another dtype and several softmax axes decline: the reference runs.
"""
from __future__ import annotations

import math

import numba
import numpy as np

from refinfer import registry
from refinfer.ops._ref.common import FLOATS, compute_dtype

from . import device
from .device import cuda, device_function, dmath
from .layout import broadcast_strides, flat, offset, split_axes

SOFTMAX, LOG_SOFTMAX, STANDARDIZE, L2 = range(4)
# What a standardising kernel writes as its second statistic.
VARIANCE, RSTD = False, True
DTYPES = frozenset(np.dtype(name) for name in FLOATS)


@device_function
def _statistics(x, base, dims, strides, size, op, zero):
    """(first, second) of a row: softmax (max, sum of e ** (x - max));
    standardize (mean, biased variance); L2 (sum of squares, unused)."""
    first = zero
    for j in range(size):
        v = x[base + offset(j, dims, strides)]
        if op == STANDARDIZE:
            first += v
        elif op == L2:
            first += v * v
        elif j == 0 or v != v or first == first and v > first:  # NaN propagates
            first = v + zero
    if op == STANDARDIZE:
        first /= size
    second = zero
    if op == L2:
        return first, second
    for j in range(size):
        v = x[base + offset(j, dims, strides)] - first
        second += v * v if op == STANDARDIZE else dmath.exp(v)
    return first, second / size if op == STANDARDIZE else second


@device.jit
def normalize_rows(x, y, stat1, stat2, weight, bias, rows, kept_dims, kept_strides,
                   dims, strides, shape, w_strides, b_strides, size, op, eps,
                   second, zero):
    """y = the row's normalisation of x (weight and bias, when not empty,
    read at each element through their broadcast strides over ``shape``);
    stat1, stat2 (when not empty) = the row's mean and variance, or rstd
    when ``second`` is RSTD."""
    for k in range(cuda.grid(1), rows, cuda.gridsize(1)):
        base = offset(k, kept_dims, kept_strides)
        first, spread = _statistics(x, base, dims, strides, size, op, zero)
        if op == STANDARDIZE:
            root = dmath.sqrt(spread + eps)
            if stat1.size:
                stat1[k] = first
                stat2[k] = 1 / root if second else spread
        elif op == L2:
            root = dmath.sqrt(first if first > eps else eps + zero)
        for j in range(size):
            at = base + offset(j, dims, strides)
            v = x[at] + zero
            if op == SOFTMAX:
                v = dmath.exp(v - first) / spread
            elif op == LOG_SOFTMAX:
                v = v - first - dmath.log(spread)
            elif op == L2:
                v = v / root
            else:
                v = (v - first) / root
                if weight.size:
                    v *= weight[offset(at, shape, w_strides)]
                if bias.size:
                    v += bias[offset(at, shape, b_strides)]
            y[at] = v


@device.jit
def batch_norm_given(x, y, scale, bias, mean, variance, rstd, inner, eps, zero):
    """y = x * inv[c] + (bias[c] - mean[c] * inv[c]), inv = scale[c] /
    sqrt(variance[c] + eps) (scale and bias: 1 and 0 when empty), c the
    channel of the element (``inner`` elements per channel and sample);
    rstd[c] = 1 / sqrt(variance[c] + eps) when rstd is not empty."""
    channels = variance.size
    # (not max(): numba's CUDA target rejects it on array sizes)
    count = y.size if y.size > rstd.size else rstd.size
    for i in range(cuda.grid(1), count, cuda.gridsize(1)):
        if i < y.size:
            c = (i // inner) % channels
            inv = (scale[c] + zero if scale.size else zero + 1) \
                / dmath.sqrt(variance[c] + zero + eps)
            shift = (bias[c] + zero if bias.size else zero) - mean[c] * inv
            y[i] = x[i] * inv + shift
        if i < rstd.size:
            rstd[i] = 1 / dmath.sqrt(variance[i] + zero + eps)


@device.jit
def channel_bias(x, bias, y, inner):
    """y[i] = x[i] + bias[c], c the channel of element i (``inner``
    elements per channel and sample): BiasAdd."""
    channels = bias.size
    for i in range(cuda.grid(1), y.size, cuda.gridsize(1)):
        y[i] = x[i] + bias[(i // inner) % channels]


def ptx_kernels() -> list[tuple]:
    """(name, Python function, argument types) of this module's kernels
    for tools/check_ptx.py, per float dtype."""
    kernels = []
    for dtype in map(np.dtype, FLOATS):
        value, index = numba.from_dtype(dtype)[::1], numba.int64[::1]
        work, i64 = numba.from_dtype(compute_dtype(dtype)), numba.int64
        kernels += [
            (f"norm rows, {dtype.name}", normalize_rows.py_func,
             (value,) * 6 + (i64,) + (index,) * 7
             + (i64, i64, work, numba.boolean, work)),
            (f"batch norm given statistics, {dtype.name}", batch_norm_given.py_func,
             (value,) * 7 + (i64, work, work)),
            (f"bias add, {dtype.name}", channel_bias.py_func, (value,) * 3 + (i64,))]
    return kernels


def _fits(x, *operands) -> bool:
    """x a float tensor of rank >= 1 and the operands (None skipped) of
    its dtype."""
    return x.dtype in DTYPES and x.ndim >= 1 and all(
        a.dtype == x.dtype for a in operands if a is not None)


def _none(dtype):
    """An empty device array: an absent operand or output."""
    return device.empty(0, dtype)


def rows(x, axes, op, weight=None, bias=None, eps=0.0, stats=None,
         view=None):
    """y (x's shape) of ``op`` over ``axes`` of x (or of x seen with shape
    ``view``), with the row statistics as (mean, second) of shape
    ``stats`` (None: not wanted) where second is RSTD or VARIANCE."""
    shape = tuple(view or x.shape)
    y = device.empty(tuple(x.shape), x.dtype)
    kept, size = split_axes(shape, axes), math.prod(shape[a] for a in axes)
    count = math.prod(n for a, n in enumerate(shape) if a not in axes)
    stat_shape, second = stats or ((0,), VARIANCE)
    stat1, stat2 = (device.empty(stat_shape, x.dtype) for _ in range(2))
    full = tuple(x.shape)
    if y.size:
        work = compute_dtype(x.dtype)
        device.launch(
            normalize_rows, count, flat(x), flat(y), flat(stat1), flat(stat2),
            _none(x.dtype) if weight is None else flat(weight),
            _none(x.dtype) if bias is None else flat(bias), count, *kept,
            device.constant(full), *(broadcast_strides(
                tuple(p.shape) if p is not None else (), full) for p in (weight, bias)),
            size, op, work.type(eps), second, work.type(0))
    return y if stats is None else (y, stat1, stat2)


def _softmax_axis(x, axis):
    """The one softmax axis, wrapped; None where the reference refuses."""
    if len(axis) != 1 or not -x.ndim <= axis[0] < x.ndim:
        return None
    return axis[0] % x.ndim


def softmax_kernel(op: int):
    """Softmax / LogSoftmax along one axis."""
    def run(input, axis=(-1,)):
        if not _fits(input):
            return None
        ax = _softmax_axis(input, axis)
        return None if ax is None else rows(input, (ax,), op)
    return run


def log_softmax_ext(input, dim=None, dtype=None):
    """LogSoftmaxExt without a dtype change (PyTorch's default dim)."""
    if dtype is not None:
        return None
    if dim is None:
        dim = 0 if input.ndim in (0, 1, 3) else 1
    return softmax_kernel(LOG_SOFTMAX)(input, (int(dim),))


def l2_normalize(x, axis=(0,), epsilon=1e-4):
    """L2Normalize along one axis."""
    if not _fits(x):
        return None
    ax = _softmax_axis(x, axis)
    return None if ax is None else rows(x, (ax,), L2, eps=epsilon)


def layer_norm(input_x, gamma, beta, begin_norm_axis=1, begin_params_axis=1,
               epsilon=1e-7):
    """LayerNorm: (y, mean, variance), the statistics with the normalised
    axes kept as length 1."""
    if not _fits(input_x, gamma, beta):
        return None
    rank = input_x.ndim
    start, params = int(begin_norm_axis) % rank, int(begin_params_axis) % rank
    trailing = tuple(input_x.shape[params:])
    if tuple(gamma.shape) != trailing or tuple(beta.shape) != trailing:
        return None
    stats = tuple(input_x.shape[:start]) + (1,) * (rank - start)
    return rows(input_x, tuple(range(start, rank)), STANDARDIZE, gamma, beta,
                epsilon, (stats, VARIANCE))


def layer_norm_ext(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """LayerNormExt: (y, mean, rstd)."""
    count = len(normalized_shape)
    shape = tuple(normalized_shape)
    if not _fits(input, weight, bias) or count > input.ndim \
            or tuple(input.shape[input.ndim - count:]) != shape \
            or any(p is not None and tuple(p.shape) != shape for p in (weight, bias)):
        return None
    start = input.ndim - count
    stats = tuple(input.shape[:start]) + (1,) * count
    return rows(input, tuple(range(start, input.ndim)), STANDARDIZE, weight, bias,
                eps, (stats, RSTD))


def _per_channel(x, *params) -> bool:
    """Every given parameter is one value per channel (axis 1)."""
    return x.ndim >= 2 and all(p is None or tuple(p.shape) == (x.shape[1],)
                               for p in params)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """GroupNorm: (y, mean, rstd) of shape (N, G)."""
    groups = int(num_groups)
    if not _fits(input, weight, bias) or not _per_channel(input, weight, bias) \
            or groups <= 0 or input.shape[1] % groups:
        return None
    n = input.shape[0]
    view = (n, groups, input.size // max(n * groups, 1))
    channel_shape = (input.shape[1],) + (1,) * (input.ndim - 2)
    return rows(input, (2,), STANDARDIZE, _channels(weight, channel_shape),
                _channels(bias, channel_shape), eps, ((n, groups), RSTD), view)


def _channels(param, shape):
    """A per-channel parameter shaped to broadcast along axis 1."""
    return None if param is None else param.reshape(shape)


def instance_norm(input_x, gamma, beta, mean, variance, epsilon=1e-5,
                  momentum=0.1):
    """InstanceNorm: (y, mean, variance), the given statistics unchanged."""
    if not _fits(input_x, gamma, beta, mean, variance) \
            or not _per_channel(input_x, gamma, beta) or input_x.ndim < 3:
        return None
    shape = (input_x.shape[1],) + (1,) * (input_x.ndim - 2)
    y = rows(input_x, tuple(range(2, input_x.ndim)), STANDARDIZE,
             gamma.reshape(shape), beta.reshape(shape), epsilon)
    return y, device.copy(mean), device.copy(variance)


def _given_statistics(x, axis, scale, bias, mean, variance, eps, rstd=None):
    """y of BatchNorm with given statistics along channel ``axis``."""
    y = device.empty(tuple(x.shape), x.dtype)
    if y.size or rstd is not None:
        work = compute_dtype(x.dtype)
        device.launch(batch_norm_given, max(y.size, variance.size), flat(x), flat(y),
                      _none(x.dtype) if scale is None else scale,
                      _none(x.dtype) if bias is None else bias, mean, variance,
                      _none(x.dtype) if rstd is None else rstd,
                      math.prod(x.shape[axis + 1:]), work.type(eps), work.type(0))
    return y


def batch_norm(x, scale, bias, mean, variance, is_training=False,
               epsilon=1e-5, momentum=0.1, data_format="NCHW"):
    """BatchNorm: (y, 0, 0, 0, 0) with the given statistics, (y, 0, 0,
    batch mean, batch variance) in training."""
    if not _fits(x, scale, bias, mean, variance) or x.ndim < 2 \
            or data_format not in ("NCHW", "NHWC"):
        return None
    axis = x.ndim - 1 if data_format == "NHWC" else 1
    if any(tuple(p.shape) != (x.shape[axis],) for p in (scale, bias, mean, variance)):
        return None
    zeros = [device.zeros(tuple(scale.shape), scale.dtype) for _ in range(2)]
    if not is_training:
        y = _given_statistics(x, axis, scale, bias, mean, variance, epsilon)
        return (y, *zeros, *(device.zeros(tuple(scale.shape), scale.dtype)
                             for _ in range(2)))
    shape = [1] * x.ndim
    shape[axis] = x.shape[axis]
    others = tuple(a for a in range(x.ndim) if a != axis)
    y, batch_mean, batch_var = rows(
        x, others, STANDARDIZE, scale.reshape(tuple(shape)), bias.reshape(tuple(shape)),
        epsilon, ((x.shape[axis],), VARIANCE))
    return y, *zeros, batch_mean, batch_var


def batch_norm_ext(input, weight=None, bias=None, running_mean=None,
                   running_var=None, training=False, momentum=0.1,
                   epsilon=1e-5):
    """BatchNormExt: (y, mean, rstd) with the running statistics, or the
    batch's own when training or when none are given."""
    if not _fits(input, weight, bias, running_mean, running_var) \
            or not _per_channel(input, weight, bias, running_mean, running_var):
        return None
    channels = input.shape[1]
    shape = (channels,) + (1,) * (input.ndim - 2)
    if training or running_mean is None or running_var is None:
        axes = (0,) + tuple(range(2, input.ndim))
        y, mean, rstd = rows(input, axes, STANDARDIZE, _channels(weight, shape),
                             _channels(bias, shape), epsilon, ((channels,), RSTD))
        return y, mean, rstd
    rstd = device.empty((channels,), input.dtype)
    y = _given_statistics(input, 1, weight, bias, running_mean, running_var,
                          epsilon, rstd)
    return y, device.copy(running_mean), rstd


def bias_add(input_x, bias, data_format="NCHW"):
    """BiasAdd: a bias of x's dtype per channel (axis 1, or the last for
    NHWC)."""
    if input_x.ndim < 2 or bias.ndim != 1 or bias.dtype != input_x.dtype \
            or input_x.dtype.kind not in "fiu":
        return None
    axis = input_x.ndim - 1 if data_format == "NHWC" else 1
    if input_x.shape[axis] != bias.shape[0]:
        return None
    y = device.empty(tuple(input_x.shape), input_x.dtype)
    if y.size:
        device.launch(channel_bias, y.size, flat(input_x), bias, flat(y),
                      math.prod(input_x.shape[axis + 1:]))
    return y


KERNELS = {"Softmax": softmax_kernel(SOFTMAX),
           "LogSoftmax": softmax_kernel(LOG_SOFTMAX),
           "LogSoftmaxExt": log_softmax_ext, "L2Normalize": l2_normalize,
           "LayerNorm": layer_norm, "LayerNormExt": layer_norm_ext,
           "GroupNorm": group_norm, "InstanceNorm": instance_norm,
           "BatchNorm": batch_norm, "BatchNormExt": batch_norm_ext,
           "BiasAdd": bias_add}
registry.declare_kernels("cuda", KERNELS)
