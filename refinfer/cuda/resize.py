"""The ``cuda`` kernels of the resizes: ResizeBilinearV2,
ResizeNearestNeighborV2, ResizeNearestNeighbor and ResizeLinear1D,
declared in :data:`KERNELS`: one kernel, :func:`resize` being the device
twin of ops/_ref/resize.resize that the references' argument helpers take;
and ResizeBicubic, a second kernel over the reference's own 4-tap tables
(ops/resize_bicubic.cubic_weights), in float64 as the reference.

The trailing 1 to 3 axes are resized (lifted to 3, the leading axes as
planes). Per axis the host computes the reference's own tables
(ops/_ref/resize.nearest_indices, linear_weights: the source index, or
the two neighbours and the upper one's weight, of every output index),
a few hundred numbers; a thread per output element then copies its
source, or blends its neighbours one axis after the other in the
reference's order and formula (low + (high - low) * weight, in the
compute dtype), so the roundings match.
"""
from __future__ import annotations

import numba
import numpy as np

from refinfer import registry
from refinfer.ops._ref import resize as ref_resize
from refinfer.ops._ref.common import compute_dtype
from refinfer.ops.resize_bicubic import cubic_weights

from . import device
from .device import cuda, device_function
from .layout import flat


@device_function
def _lerp(low, high, weight):
    """The reference's blend of two neighbours."""
    return low + (high - low) * weight


@device_function
def _at(x, plane, z, y, w, sizes):
    """x[plane, z, y, w] of x (planes, D, H, W), read flat."""
    return x[((plane * sizes[0] + z) * sizes[1] + y) * sizes[2] + w]


@device.jit
def resize_kernel(x, out, sizes, out_sizes, lower, upper, weight, linear, zero):
    """out (planes, OD, OH, OW) from x (planes, D, H, W): the axes' tables
    lie one after another in lower, upper and weight (OD, then OH, then
    OW entries); ``linear`` blends, else lower is the source index."""
    od, oh, ow = out_sizes
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        q = i // ow
        c, b = i % ow + od + oh, q % oh + od
        a, plane = (q // oh) % od, q // (oh * od)
        if not linear:
            out[i] = _at(x, plane, lower[a], lower[b], lower[c], sizes)
            continue
        # along D at the four (H, W) corners, then along H, then along W
        corners = (lower[b], upper[b])
        ll = _lerp(_at(x, plane, lower[a], corners[0], lower[c], sizes) + zero,
                   _at(x, plane, upper[a], corners[0], lower[c], sizes), weight[a])
        lu = _lerp(_at(x, plane, lower[a], corners[0], upper[c], sizes) + zero,
                   _at(x, plane, upper[a], corners[0], upper[c], sizes), weight[a])
        ul = _lerp(_at(x, plane, lower[a], corners[1], lower[c], sizes) + zero,
                   _at(x, plane, upper[a], corners[1], lower[c], sizes), weight[a])
        uu = _lerp(_at(x, plane, lower[a], corners[1], upper[c], sizes) + zero,
                   _at(x, plane, upper[a], corners[1], upper[c], sizes), weight[a])
        out[i] = _lerp(_lerp(ll, ul, weight[b]), _lerp(lu, uu, weight[b]), weight[c])


@device.jit
def bicubic_kernel(x, out, taps_h, weights_h, taps_w, weights_w):
    """out (planes, OH, OW) from x (planes, H, W), in float64: along H the
    sum of x at the output row's 4 taps times their weights, then along W
    the same of those sums, each sum in tap order (the reference's)."""
    rows, columns = out.shape[1], out.shape[2]
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        ow, oh, plane = i % columns, (i // columns) % rows, i // (columns * rows)
        total = 0.0
        for b in range(4):
            column = 0.0
            for a in range(4):
                column += np.float64(x[plane, taps_h[oh, a], taps_w[ow, b]]) \
                    * weights_h[oh, a]
            total += column * weights_w[ow, b]
        out[plane, oh, ow] = total


def ptx_kernels() -> list[tuple]:
    """(name, Python function, argument types) of the kernels for
    tools/check_ptx.py, per float dtype (bicubic: float32, float64 and
    int32 images)."""
    kernels = []
    for dtype in map(np.dtype, ("float16", "float32", "float64")):
        value, index = numba.from_dtype(dtype)[::1], numba.int64[::1]
        work = numba.from_dtype(compute_dtype(dtype))
        triple = numba.types.UniTuple(numba.int64, 3)
        kernels.append((f"resize, {dtype.name}", resize_kernel.py_func,
                        (value, value, triple, triple, index, index, work[::1],
                         numba.boolean, work)))
    taps, weights = numba.int64[:, ::1], numba.float64[:, ::1]
    for dtype, result in (("float32", "float32"), ("float64", "float64"),
                          ("int32", "float32")):
        image = numba.from_dtype(np.dtype(dtype))[:, :, ::1]
        kernels.append((f"resize bicubic, {dtype}", bicubic_kernel.py_func,
                        (image, numba.from_dtype(np.dtype(result))[:, :, ::1], taps,
                         weights, taps, weights)))
    return kernels


def _tables(axes, linear, align_corners, half_pixel_centers, work):
    """(lower, upper, weight) of every (size in, size out) axis, joined."""
    lower, upper, weight = [], [], []
    for size_in, size_out in axes:
        if linear:
            low, high, w = ref_resize.linear_weights(size_in, size_out, align_corners,
                                                     half_pixel_centers)
        else:
            low = ref_resize.nearest_indices(size_in, size_out, align_corners,
                                             half_pixel_centers)
            high, w = low, np.zeros(size_out)
        lower.append(low)
        upper.append(high)
        weight.append(w)
    return (device.constant(np.concatenate(lower)),
            device.constant(np.concatenate(upper)),
            device.to_device(np.concatenate(weight).astype(work)))


def resize(x, size, mode: str, align_corners: bool, half_pixel_centers: bool):
    """The device twin of ops/_ref/resize.resize ("nearest" for any dtype,
    "linear" for floats); None where it declines (the reference raises)."""
    rank, linear = len(size), mode == "linear"
    if not 1 <= rank <= 3 or x.ndim < rank or any(int(s) <= 0 for s in size) \
            or 0 in tuple(x.shape) or linear and x.dtype.kind != "f":
        return None
    shape = tuple(x.shape)
    lead, spatial = shape[:x.ndim - rank], shape[x.ndim - rank:]
    out = tuple(int(s) for s in size)
    lifted_in, lifted_out = (1,) * (3 - rank) + spatial, (1,) * (3 - rank) + out
    y = device.empty(lead + out, x.dtype)
    work = compute_dtype(x.dtype)
    device.launch(resize_kernel, y.size, flat(x), flat(y), lifted_in, lifted_out,
                  *_tables(zip(lifted_in, lifted_out), linear, align_corners,
                           half_pixel_centers, work), linear, work.type(0))
    return y


def resize_bilinear_v2(image, size, align_corners=False, half_pixel_centers=False):
    """ResizeBilinearV2."""
    return ref_resize.resize_bilinear_with(resize, image, size, align_corners,
                                           half_pixel_centers)


def resize_nearest_neighbor_v2(image, size, align_corners=False,
                               half_pixel_centers=False):
    """ResizeNearestNeighborV2."""
    return ref_resize.resize_nearest_with(resize, image, size, align_corners,
                                          half_pixel_centers)


def resize_nearest_neighbor(input_x, size, align_corners=False,
                            half_pixel_centers=False):
    """ResizeNearestNeighbor: half_pixel_centers ignored, as the reference."""
    return ref_resize.resize_nearest_with(resize, input_x, size, align_corners, False)


def resize_linear1d(x, size, coordinate_transformation_mode="align_corners"):
    """ResizeLinear1D."""
    return ref_resize.resize_linear1d_with(resize, x, size,
                                           coordinate_transformation_mode)


def resize_bicubic(images, size, align_corners=False, half_pixel_centers=False):
    """ResizeBicubic: float64 stays float64, other dtypes give float32;
    declines float16, bool and what the reference refuses."""
    if images.ndim != 4 or len(size) != 2 or min(size) <= 0 \
            or align_corners and half_pixel_centers or 0 in tuple(images.shape[2:]) \
            or images.dtype.kind not in "iuf" or images.dtype == np.float16:
        return None
    n, c, height, width = images.shape
    rows, columns = int(size[0]), int(size[1])
    out = device.empty((n, c, rows, columns),
                       np.float64 if images.dtype == np.float64 else np.float32)
    if out.size:
        tables = [device.to_device(np.ascontiguousarray(table)) for axis in (
            cubic_weights(height, rows, align_corners, half_pixel_centers),
            cubic_weights(width, columns, align_corners, half_pixel_centers))
            for table in axis]
        device.launch(bicubic_kernel, out.size, images.reshape((n * c, height, width)),
                      out.reshape((n * c, rows, columns)), *tables)
    return out


KERNELS = {"ResizeBilinearV2": resize_bilinear_v2,
           "ResizeNearestNeighborV2": resize_nearest_neighbor_v2,
           "ResizeNearestNeighbor": resize_nearest_neighbor,
           "ResizeLinear1D": resize_linear1d, "ResizeBicubic": resize_bicubic}
registry.declare_kernels("cuda", KERNELS)
