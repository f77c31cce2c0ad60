"""The ``cuda`` kernels of the Upsample ops (nearest over 1-3 trailing
axes, linear, bilinear, trilinear): the reference's argument checks and
output sizes (ops/_ref/resize.py: upsample_with, given a device
``sample``), then one pass per resized axis, as the reference resizes:
a take along the axis (nearest) or a blend of two takes (linear) with
the reference's own index and weight tables, uploaded once per size.
Importing this module declares them."""
from __future__ import annotations

import functools
import math

import numpy as np

from refinfer import registry
from refinfer.ops._ref.resize import linear_weights, nearest_indices, upsample_with

from . import device
from .device import cuda

LINEAR_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


@device.jit
def _take(x, index, out):
    """out[o, i, n] = x[o, index[i], n] over (outer, axis, inner) views."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    length, inner = out.shape[1], out.shape[2]
    for k in range(start, out.size, stride):
        o, i, n = k // (length * inner), (k // inner) % length, k % inner
        out[o, i, n] = x[o, index[i], n]


@device.jit
def _blend(x, lower, upper, weight, out):
    """out[o, i, n] = low + (high - low) * weight[i], low and high x at
    lower[i] and upper[i] along the middle axis (the reference's formula)."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    length, inner = out.shape[1], out.shape[2]
    for k in range(start, out.size, stride):
        o, i, n = k // (length * inner), (k // inner) % length, k % inner
        low = x[o, lower[i], n]
        out[o, i, n] = low + (x[o, upper[i], n] - low) * weight[i]


@functools.lru_cache(maxsize=256)
def _tables(size_in: int, size_out: int, mode: str, align_corners: bool,
            half_pixel_centers: bool, dtype: np.dtype) -> tuple:
    """The device copies of an axis's index tables (and weights in
    ``dtype``), made once per sizes and mode."""
    if mode == "nearest":
        return (device.to_device(nearest_indices(size_in, size_out, align_corners,
                                                 half_pixel_centers)),)
    lower, upper, weight = linear_weights(size_in, size_out, align_corners,
                                          half_pixel_centers)
    return tuple(map(device.to_device, (lower, upper, weight.astype(dtype))))


def _resample_axis(y, axis: int, size_out: int, tables: tuple):
    """One pass: ``y`` resized along ``axis`` to ``size_out``."""
    shape = tuple(y.shape)
    outer, inner = math.prod(shape[:axis]), math.prod(shape[axis + 1:])
    out = device.empty(shape[:axis] + (size_out,) + shape[axis + 1:], y.dtype)
    kernel = _take if len(tables) == 1 else _blend
    if out.size:
        device.launch(kernel, out.size, y.reshape(outer, shape[axis], inner),
                      *tables, out.reshape(outer, size_out, inner))
    return out


def device_sample(x):
    """A ``sample`` for upsample_with that resizes the device array ``x``
    (it is given x's host stand-in); None (the CPU kernel then runs) for
    sizes the reference refuses and linear modes of other dtypes than
    float32 and float64."""
    def sample(_, size, mode, align_corners, half_pixel_centers):
        if any(int(s) <= 0 for s in size) or (
                mode == "linear" and x.dtype not in LINEAR_DTYPES):
            return None
        first, y = x.ndim - len(size), x
        for k, size_out in enumerate(size):
            tables = _tables(int(x.shape[first + k]), int(size_out), mode,
                             bool(align_corners), bool(half_pixel_centers), x.dtype)
            resized = _resample_axis(y, first + k, int(size_out), tables)
            if y is not x:
                device.release(y)   # an earlier pass's, read by nothing more
            y = resized
        return y
    return sample


def upsample_nearest(x, output_size=None, scales=None):
    """UpsampleNearest1D/2D/3D on the device."""
    return upsample_with(device_sample(x), device.stand_in(x), output_size,
                         scales, (1, 2, 3), "nearest")


def upsample_linear(ranks: tuple):
    """The cuda kernel of a linear Upsample op over ``ranks`` trailing axes."""
    def run(x, output_size=None, scales=None, align_corners=False):
        return upsample_with(device_sample(x), device.stand_in(x), output_size,
                             scales, ranks, "linear", align_corners)
    return run


KERNELS = {"UpsampleNearest1D": upsample_nearest, "UpsampleNearest2D": upsample_nearest,
           "UpsampleNearest3D": upsample_nearest,
           "UpsampleLinear1D": upsample_linear((1, 2)),
           "UpsampleBilinear2D": upsample_linear((1, 2)),
           "UpsampleTrilinear3D": upsample_linear((3,))}
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [("take along an axis, float32", _take,
        "void(float32[:, :, ::1], int64[::1], float32[:, :, ::1])"),
       ("take along an axis, int32", _take,
        "void(int32[:, :, ::1], int64[::1], int32[:, :, ::1])"),
       ("blend along an axis, float32", _blend,
        "void(float32[:, :, ::1], int64[::1], int64[::1], float32[::1],"
        " float32[:, :, ::1])")]
