"""The ``cuda`` kernels of the pools: MaxPool, AvgPool (2-D, classic),
MaxPool3D, AvgPool3D, the mint AvgPool1D / AvgPool2D / AvgPool3DExt, the
max pools with indices (MaxPoolWithArgmax, MaxPoolWithArgmaxV2,
MaxPool3DWithArgmax, MaxPoolWithIndices, MaxPoolWithMask), and the
adaptive average (1-D to 3-D, global pooling included) and max pools,
declared in :data:`KERNELS`: one window kernel for all of them; and
MaxUnpool2D, the inverse of a max pool with indices, on scatter.py's
scatter along an axis; Im2Col, every window's taps as columns (a thread
per element of the result).

Every rank runs as 3-D (leading unit axes) with the batch and channel
axes as one, a thread per output element in a grid-stride loop. Along
each axis an output's window is its taps (first position, count, step):
o*stride - before + t*dilation for the strided pools, the adaptive bin
[floor(o*L/n), ceil((o+1)*L/n)) for the adaptive ones (:func:`_window`).
Taps outside the input are padding: never the maximum, and counted in an
average's divisor only where the op counts padding (clipped to the padded
input, so a ceil-mode overhang never counts), as the references
(ops/_ref/pool.py), whose argument checks and resolutions the kernels
share: :func:`max_pool` and :func:`avg_pool` are the device twins of the
references' pool functions and are handed to the same helpers.
"""
from __future__ import annotations

import math

import numba
import numpy as np
from numba import types

from refinfer import registry
from refinfer.ops._kernels.conv import _geometry, _lift
from refinfer.ops._ref import pool as ref_pool
from refinfer.ops._ref import window as win
from refinfer.ops._kernels.index import UPDATE
from refinfer.ops._ref.common import compute_dtype

from . import device
from .device import cuda, device_function
from .fill import filled
from .layout import flat
from .scatter import scatter_into

MAX, AVG = 0, 1
# Divisors of an average (without divisor_override).
REAL, PADDED = False, True
DTYPES = frozenset(np.dtype(name) for name in
                   ("float16", "float32", "float64", "int8", "int16", "int32",
                    "int64", "uint8", "uint16", "uint32", "uint64"))


@device_function
def _window(o, before, kernel, stride, dilation, size, out_size, adaptive):
    """(first position, taps, step) of output o's window along one axis."""
    if adaptive:
        first = o * size // out_size
        return first, -(-(o + 1) * size // out_size) - first, 1
    return o * stride - before, kernel, dilation


@device_function
def _inside(p, size, before, after):
    """Whether position p lies in the padded input [-before, size + after)."""
    return -before <= p < size + after


@device.jit
def pool_kernel(x, out, index, sizes, geometry, after, op, count_padding, divisor,
                adaptive, start):
    """out (NC, OD, OH, OW) = the max (op MAX) or mean of each window of x
    (NC, D, H, W). geometry: padding before, kernel, stride, dilation and
    output size, 3 each; after: padding after; ``start``: the max's
    lowest value (padding) or the sum's zero, in the compute dtype; the
    mean divides by ``divisor`` when it is not 0, else by the taps in the
    padded input (count_padding) or in the input. index (when not empty):
    where each maximum lies, a flat index into (D, H, W) (-1: padding);
    the first tap of a window sets the first candidate, a later one
    replaces it only when greater, or NaN over a number (the references'
    rules: the first maximum on ties, the first NaN wins)."""
    d, h, w = sizes
    od, oh, ow = geometry[12], geometry[13], geometry[14]
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        q = i // ow
        pz, py, px = (q // oh) % od, q % oh, i % ow
        plane = q // (oh * od)
        z0, zt, zs = _window(pz, geometry[0], geometry[3], geometry[6], geometry[9],
                             d, od, adaptive)
        y0, yt, ys = _window(py, geometry[1], geometry[4], geometry[7], geometry[10],
                             h, oh, adaptive)
        x0, xt, xs = _window(px, geometry[2], geometry[5], geometry[8], geometry[11],
                             w, ow, adaptive)
        acc, at, real, padded = start, -1, 0, 0
        for a in range(zt):
            z = z0 + a * zs
            for b in range(yt):
                y = y0 + b * ys
                for c in range(xt):
                    xx = x0 + c * xs
                    if _inside(z, d, geometry[0], after[0]) \
                            and _inside(y, h, geometry[1], after[1]) \
                            and _inside(xx, w, geometry[2], after[2]):
                        padded += 1
                    if 0 <= z < d and 0 <= y < h and 0 <= xx < w:
                        v = x[((plane * d + z) * h + y) * w + xx]
                        real += 1
                        if op == AVG:
                            acc += v
                        elif a + b + c == 0 or v > acc or v != v and acc == acc:
                            acc, at = v, (z * h + y) * w + xx
        if op == MAX:
            out[i] = acc
            if index.size:
                index[i] = at
        else:
            out[i] = acc / (divisor if divisor else padded if count_padding else real)


@device.jit
def columns_kernel(x, out, geometry):
    """out (planes, kh * kw, OH * OW)[p, i * kw + j, oh * OW + ow] = x
    (planes, H, W)[p, oh * sh - top + i * dh, ow * sw - left + j * dw], 0
    outside x; geometry = (kw, sh, sw, dh, dw, top, left, OW)."""
    kw, sh, sw, dh, dw, top, left, ow = geometry
    taps, count = out.shape[1], out.shape[2]
    for t in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        column, tap, plane = t % count, (t // count) % taps, t // (count * taps)
        y = column // ow * sh - top + tap // kw * dh
        xx = column % ow * sw - left + tap % kw * dw
        inside = 0 <= y < x.shape[1] and 0 <= xx < x.shape[2]
        out[plane, tap, column] = x[plane, y, xx] if inside else 0


def ptx_kernels() -> list[tuple]:
    """(name, Python function, argument types) of the pool kernel for
    tools/check_ptx.py, per float dtype and int32 (MaxPool3D), and of
    Im2Col's columns kernel (float16, float32, int8)."""
    kernels = [(f"im2col columns, {dtype}", columns_kernel.py_func,
                (numba.from_dtype(np.dtype(dtype))[:, :, ::1],
                 numba.from_dtype(np.dtype(dtype))[:, :, ::1],
                 types.UniTuple(numba.int64, 8)))
               for dtype in ("float16", "float32", "int8")]
    for dtype in map(np.dtype, ("float16", "float32", "float64", "int32")):
        value, i64 = numba.from_dtype(dtype)[::1], numba.int64
        work, triple = numba.from_dtype(compute_dtype(dtype)), types.UniTuple(i64, 3)
        kernels.append((f"pool window, {dtype.name}", pool_kernel.py_func,
                        (value, value, numba.int64[::1], triple,
                         types.UniTuple(i64, 15), triple, i64, numba.boolean, work,
                         numba.boolean, work)))
    return kernels


def _pool(x, kernel, stride, dilation, pads, out_size, op, count_padding=False,
          divisor=0, adaptive=False, index_dtype=None):
    """The pool of x (N, C, *S), rank 1 to 3, into (N, C, *out_size);
    with ``index_dtype`` (a max) also where each maximum lies: (y, index)."""
    if x.dtype not in DTYPES or op == AVG and x.dtype.kind != "f" \
            or not 1 <= x.ndim - 2 <= 3:
        return None
    y = device.empty(tuple(x.shape[:2]) + tuple(out_size), x.dtype)
    index = device.empty(tuple(y.shape) if index_dtype else 0, index_dtype or np.int64)
    if y.size == 0:
        return (y, index) if index_dtype else y
    work = compute_dtype(x.dtype)
    lowest = -np.inf if work.kind == "f" else np.iinfo(work).min
    lead = (0,) * (5 - x.ndim)
    device.launch(pool_kernel, y.size, flat(x), flat(y), flat(index),
                  tuple(_lift(x, 3).shape[2:]),
                  _geometry(pads, kernel, stride, dilation, out_size),
                  lead + tuple(int(p[1]) for p in pads), op, count_padding,
                  work.type(divisor), adaptive,
                  work.type(lowest if op == MAX else 0))
    return (y, index) if index_dtype else y


def max_pool(x, kernel, stride, dilation, pads, ceil_mode=False, argmax=False):
    """The device twin of ops/_ref/pool.max_pool: y, or (y, int64 index)."""
    out = win.output_hw(tuple(x.shape[2:]), kernel, stride, dilation, pads, ceil_mode)
    return _pool(x, kernel, stride, dilation, pads, out, MAX,
                 index_dtype=np.dtype(np.int64) if argmax else None)


def avg_pool(x, kernel, stride, pads, ceil_mode=False, count_include_pad=True,
             divisor_override=0):
    """The device twin of ops/_ref/pool.avg_pool."""
    ones = (1,) * len(kernel)
    out = win.output_hw(tuple(x.shape[2:]), kernel, stride, ones, pads, ceil_mode)
    return _pool(x, kernel, stride, ones, pads, out, AVG, bool(count_include_pad),
                 divisor_override)


def classic(op: int):
    """MaxPool / AvgPool (2-D, NCHW): SAME padding never counts."""
    def run(x, kernel_size=(1, 1), strides=(1, 1), pad_mode="VALID",
            data_format="NCHW"):
        if x.ndim != 4 or data_format != "NCHW":
            return None
        pads = win.resolve_pads(tuple(x.shape[2:]), kernel_size, strides, (1, 1),
                                pad_mode)
        if op == MAX:
            return max_pool(x, kernel_size, strides, (1, 1), pads)
        return avg_pool(x, kernel_size, strides, pads, False, False)
    return run


def max_pool3d(x, kernel_size=(1, 1, 1), strides=(1, 1, 1), pad_mode="VALID",
               pad_list=(0, 0, 0, 0, 0, 0), ceil_mode=False, data_format="NCDHW"):
    """MaxPool3D."""
    return ref_pool.max_pool3d_with(max_pool, x, kernel_size, strides, pad_mode,
                                    pad_list, ceil_mode, data_format)


def avg_pool3d(input, kernel_size=(1, 1, 1), strides=(1, 1, 1), pad_mode="VALID",
               pad=(0, 0, 0, 0, 0, 0), ceil_mode=False, count_include_pad=True,
               divisor_override=0, data_format="NCDHW", pad_list=None):
    """AvgPool3D."""
    return ref_pool.avg_pool3d_with(avg_pool, input, kernel_size, strides, pad_mode,
                                    pad, ceil_mode, count_include_pad,
                                    divisor_override, data_format, pad_list)


def mint_avg_pool(rank: int):
    """AvgPool1D / AvgPool2D / AvgPool3DExt; an unbatched input gets N = 1
    (a reshape: device arrays take no ``[None]``)."""
    def run(input, kernel_size, stride=None, padding=(0,), ceil_mode=False,
            count_include_pad=True, divisor_override=None):
        unbatched = input.ndim == rank + 1
        x = input.reshape((1,) + tuple(input.shape)) if unbatched else input
        y = ref_pool.torch_avg_pool(avg_pool, rank, x, kernel_size, stride, padding,
                                    ceil_mode, count_include_pad, divisor_override)
        return y.reshape(tuple(y.shape[1:])) if unbatched and y is not None else y
    return run


def _argmax_pool(x, kernel_size, strides, pads, dilation, ceil_mode, argmax_type):
    """(y, the flat spatial index of each maximum, of ``argmax_type``) of
    x (N, C, *S); strides None is the kernel, pads on both sides."""
    if np.dtype(argmax_type).kind not in "iu":
        return None
    strides = kernel_size if strides is None else strides
    pairs = tuple((p, p) for p in pads)
    out = win.output_hw(tuple(x.shape[2:]), kernel_size, strides, dilation, pairs,
                        ceil_mode)
    return _pool(x, kernel_size, strides, dilation, pairs, out, MAX,
                 index_dtype=np.dtype(argmax_type))


def with_indices(x, kernel_size, strides=None, pads=(0, 0), dilation=(1, 1),
                 ceil_mode=False, argmax_type=np.dtype(np.int64)):
    """MaxPoolWithArgmaxV2, MaxPoolWithIndices, MaxPoolWithMask: (y, the
    flat (H, W) index of each maximum, of ``argmax_type``); an unbatched
    (C, H, W) input gets N = 1 (a reshape: device arrays take no
    ``[None]``)."""
    unbatched = x.ndim == 3
    image = x.reshape((1,) + tuple(x.shape)) if unbatched else x
    if image.ndim != 4:
        return None
    pooled = _argmax_pool(image, kernel_size, strides, pads, dilation, ceil_mode,
                          argmax_type)
    if pooled is None or not unbatched:
        return pooled
    return tuple(p.reshape(tuple(p.shape[1:])) for p in pooled)


def max_pool3d_with_argmax(x, ksize, strides, pads, dilation=(1, 1, 1),
                           ceil_mode=False, data_format="NCDHW",
                           argmax_type=np.dtype(np.int64)):
    """MaxPool3DWithArgmax: (y, the flat (D, H, W) index of each maximum)."""
    ref_pool.check_ncdhw(x, data_format)
    return _argmax_pool(x, ksize, strides, pads, dilation, ceil_mode, argmax_type)


def max_pool_with_argmax(x, kernel_size=(1, 1), strides=(1, 1), pad_mode="VALID",
                         data_format="NCHW"):
    """MaxPoolWithArgmax (classic): (y, int32 index of each maximum into
    its sample's (C, H, W)): x (N, C, H, W) pooled as (N, 1, C, H, W) with
    a window of one channel, whose flat (D, H, W) index is that one."""
    pads = ref_pool.max_pool_with_argmax_pads(x, kernel_size, strides, pad_mode,
                                              data_format)
    n, c, h, w = x.shape
    out = (c,) + win.output_hw((h, w), kernel_size, strides, (1, 1), pads, False)
    pooled = _pool(x.reshape((n, 1, c, h, w)), (1,) + tuple(kernel_size),
                   (1,) + tuple(strides), (1, 1, 1), ((0, 0),) + tuple(pads), out, MAX,
                   index_dtype=np.dtype(np.int32))
    return None if pooled is None else tuple(p.reshape((n,) + out) for p in pooled)


def max_unpool2d(x, argmax, ksize, strides=0, pads=0, output_shape=(),
                 data_format="NCHW"):
    """MaxUnpool2D: each value of x scattered into a zero plane at its
    argmax (a flat (H_out, W_out) index, in order: the last repeat wins),
    NCHW or NHWC; declines what the reference refuses (an argmax outside
    the plane found on the device)."""
    if x.ndim != 4 or tuple(argmax.shape) != tuple(x.shape) \
            or argmax.dtype.kind not in "iu" or data_format not in ("NCHW", "NHWC"):
        return None
    last = data_format == "NHWC"
    n, c = x.shape[0], x.shape[3 if last else 1]
    spatial = tuple(x.shape[1:3] if last else x.shape[2:])
    strides = ksize if tuple(strides) == (0, 0) else strides
    size = tuple(output_shape[-2:]) if output_shape else tuple(
        (spatial[i] - 1) * strides[i] - 2 * pads[i] + ksize[i] for i in range(2))
    planes = (n, size[0] * size[1], c) if last else (n, c, size[0] * size[1])
    lines = (n, math.prod(spatial), c) if last else (n, c, math.prod(spatial))
    out = scatter_into(filled(planes, np.zeros((), x.dtype)), 1 if last else 2,
                       argmax.reshape(lines), x.reshape(lines), UPDATE, wrap=False)
    if out is None:
        return None
    return out.reshape((n,) + size + (c,) if last else (n, c) + size)


def adaptive_pool(op: int):
    """AdaptiveAvgPool1D/2D/3D(Ext) (y) and AdaptiveMaxPool1D/2D (y, int64
    index into the pooled axes)."""
    def run(input, output_size):
        return _adaptive(input, output_size, op)
    return run


def _adaptive(input, output_size, op):
    """The adaptive pool over the trailing len(output_size) axes (None /
    -1 keeps an axis), the leading axes as one."""
    ref_pool.check_output_size("AdaptiveAvgPool" if op == AVG else "AdaptiveMaxPool",
                               input, output_size)
    rank = len(output_size)
    if not 1 <= rank <= 3 or op == AVG and input.dtype.kind != "f":
        return None
    shape = tuple(input.shape)
    spatial = shape[len(shape) - rank:]
    out = tuple(s if o in (None, -1) else int(o) for s, o in zip(spatial, output_size))
    if min(out, default=1) <= 0:
        return None
    lead = shape[:len(shape) - rank]
    x = input.reshape((math.prod(lead), 1) + spatial)
    ones = (1,) * rank
    pooled = _pool(x, ones, ones, ones, ((0, 0),) * rank, out, op, adaptive=True,
                   index_dtype=np.dtype(np.int64) if op == MAX else None)
    if pooled is None:
        return None
    if op == MAX:
        return tuple(p.reshape(lead + out) for p in pooled)
    return pooled.reshape(lead + out)


def im2col(x, ksizes, strides=1, dilations=1, pads=0):
    """Im2Col: the sliding windows of x (N, C, H, W) as columns, (N, C,
    kh * kw, OH * OW); pads (top, bottom, left, right)."""
    if x.ndim != 4:
        return None
    pairs = ((pads[0], pads[1]), (pads[2], pads[3]))
    out = win.output_hw(tuple(x.shape[2:]), ksizes, strides, dilations, pairs)
    n, c, h, w = x.shape
    taps = ksizes[0] * ksizes[1]
    y = device.empty((n, c, taps, out[0] * out[1]), x.dtype)
    if y.size:
        device.launch(columns_kernel, y.size, x.reshape((n * c, h, w)),
                      y.reshape((n * c, taps, out[0] * out[1])),
                      (ksizes[1], strides[0], strides[1], dilations[0], dilations[1],
                       pads[0], pads[2], out[1]))
    return y


KERNELS = {"MaxPool": classic(MAX), "AvgPool": classic(AVG),
           "MaxPool3D": max_pool3d, "AvgPool3D": avg_pool3d,
           "AvgPool1D": mint_avg_pool(1), "AvgPool2D": mint_avg_pool(2),
           "AvgPool3DExt": mint_avg_pool(3),
           "MaxPoolWithArgmax": max_pool_with_argmax,
           "MaxPoolWithArgmaxV2": with_indices, "MaxPoolWithIndices": with_indices,
           "MaxPool3DWithArgmax": max_pool3d_with_argmax, "MaxUnpool2D": max_unpool2d,
           "Im2Col": im2col,
           "MaxPoolWithMask": with_indices,
           "AdaptiveMaxPool1D": adaptive_pool(MAX),
           "AdaptiveMaxPool2D": adaptive_pool(MAX),
           **{name: adaptive_pool(AVG) for name in (
               "AdaptiveAvgPool1D", "AdaptiveAvgPool2D", "AdaptiveAvgPool3D",
               "AdaptiveAvgPool2DExt", "AdaptiveAvgPool3DExt")}}
registry.declare_kernels("cuda", KERNELS)
