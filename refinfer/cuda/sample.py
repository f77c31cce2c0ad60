"""The ``cuda`` kernels of the ops that sample an image at computed
points: GridSampler2D, GridSampler3D (a thread per output element, the
point read from the grid) and ROIAlign (a thread per output bin,
averaging its regular samples), declared in :data:`KERNELS`.

Both follow their references' arithmetic step by step (ops/
grid_sampler.py: float64 coordinates, the value and the corner weights
in the input's dtype, an outside tap reading the clamped element times
0, so a NaN there still shows as NaN; ops/roi_align.py: Caffe2's
sampling in float64). float16 is declined (the CPU kernel computes it in
float32 and casts).
"""
from __future__ import annotations

import math

import numpy as np

from refinfer import registry
from refinfer.ops.grid_sampler import MODES, PADDINGS

from . import device
from .device import cuda, device_function, dmath
from .fill import filled

ZEROS, BORDER, REFLECTION = range(3)
LARGEST_INDEX = 2.0 ** 62


@device_function
def _clip(value, low, high):
    """np.clip(value, low, high): a NaN stays NaN."""
    if value < low:
        return low
    return high if value > high else value


@device_function
def _source(g, size, align_corners, padding):
    """A grid value in [-1, 1] as a coordinate along an axis of ``size``,
    clamped (BORDER) or reflected (REFLECTION) into it."""
    if align_corners:
        coord, low, high = (g + 1) / 2 * (size - 1), 0.0, size - 1.0
    else:
        coord, low, high = ((g + 1) * size - 1) / 2, -0.5, size - 0.5
    if padding == REFLECTION and high > low:
        span = high - low
        folded = abs(coord - low) % (2 * span)
        coord = low + (2 * span - folded if folded > span else folded)
    if padding != ZEROS:
        coord = _clip(coord, 0.0, size - 1.0)
    return coord


@device_function
def _rint(value):
    """np.rint: the nearest whole number, halves to even (NaN, inf kept)."""
    whole = dmath.floor(value)
    part = value - whole
    return whole + 1 if part > 0.5 or part == 0.5 and whole % 2 != 0 else whole


@device_function
def _clamped(position, size):
    """The reference's clamped index of a float position (as int64: NaN
    and positions beyond int64 become its lowest value, clamped to 0)."""
    if position != position or abs(position) >= LARGEST_INDEX:
        return 0
    return _clip(np.int64(position), 0, size - 1)


@device.jit
def _grid_sample(x, grid, dims, nearest, padding, align_corners, out):
    """out (N, C, P)[n, c, p] = x (N, C, S) sampled at grid (N, P, rank)[n,
    p] (x, y(, z): the last spatial axis first; S flat, of shape
    ``dims``): the nearest element, or the blend of the 2^rank corners
    around the point, weights the product of each axis's 1 - t or t."""
    rank, points, channels = grid.shape[2], out.shape[2], out.shape[1]
    zero, one = out.dtype.type(0), out.dtype.type(1)
    coords = cuda.local.array(3, np.float64)
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        p, c, n = i % points, (i // points) % channels, i // (points * channels)
        for k in range(rank):
            coords[k] = _source(np.float64(grid[n, p, rank - 1 - k]), dims[k],
                                align_corners, padding)
        total = zero
        for corner in range(1 if nearest else 1 << rank):
            weight, at, inside = 1.0, 0, True
            for k in range(rank):
                coord = coords[k]
                position = _rint(coord) if nearest else dmath.floor(coord)
                if not nearest:
                    part = coord - position
                    high = (corner >> (rank - 1 - k)) & 1
                    weight *= part if high else 1 - part
                    position += high
                inside = inside and 0 <= position < dims[k]
                at = at * dims[k] + _clamped(position, dims[k])
            value = x[n, c, at] * (one if inside else zero)
            total = value if nearest else total + value * out.dtype.type(weight)
        out[n, c, p] = total


def grid_sample(input_x, grid, interpolation_mode="bilinear", padding_mode="zeros",
                align_corners=False):
    """GridSampler2D / GridSampler3D; declines float16 and what the
    reference refuses (modes, a grid that does not fit input_x)."""
    rank = input_x.ndim - 2
    if input_x.dtype not in (np.float32, np.float64) or rank not in (2, 3) \
            or interpolation_mode not in MODES[:2] or padding_mode not in PADDINGS \
            or grid.ndim != rank + 2 or grid.shape[0] != input_x.shape[0] \
            or grid.shape[grid.ndim - 1] != rank \
            or grid.dtype not in (np.float32, np.float64):
        return None
    n, c = input_x.shape[:2]
    points = tuple(grid.shape[1:rank + 1])
    out = device.empty((n, c) + points, input_x.dtype)
    if out.size:
        dims = device.constant(tuple(input_x.shape[2:]))
        device.launch(_grid_sample, out.size,
                      input_x.reshape((n, c, math.prod(input_x.shape[2:]))),
                      grid.reshape((n, math.prod(points), rank)), dims,
                      interpolation_mode == "nearest", PADDINGS.index(padding_mode),
                      bool(align_corners), out.reshape((n, c, math.prod(points))))
    return out


@device_function
def _bilinear(features, b, c, y, x):
    """Caffe2's ROIAlign sample of features[b, c] at (y, x), float64: 0
    beyond one pixel outside, coordinates clamped at the far edge."""
    height, width = features.shape[2], features.shape[3]
    if y < -1 or y > height or x < -1 or x > width:
        return 0.0
    y, x = (y if y > 0 else 0.0), (x if x > 0 else 0.0)
    y0, x0 = _clip(np.int64(y), 0, height - 1), _clip(np.int64(x), 0, width - 1)
    y1, x1 = _clip(y0 + 1, 0, height - 1), _clip(x0 + 1, 0, width - 1)
    y = np.float64(y0) if y0 == height - 1 else y
    x = np.float64(x0) if x0 == width - 1 else x
    ly, lx = y - y0, x - x0
    return ((1 - ly) * (1 - lx) * np.float64(features[b, c, y0, x0])
            + (1 - ly) * lx * np.float64(features[b, c, y0, x1])
            + ly * (1 - lx) * np.float64(features[b, c, y1, x0])
            + ly * lx * np.float64(features[b, c, y1, x1]))


@device_function
def _samples(size, bins, sample_num):
    """Samples per bin along an axis: sample_num, or where it is not
    positive ceil(size / bins) (Caffe2's rule)."""
    return sample_num if sample_num > 0 else np.int64(dmath.ceil(size / bins))


@device.jit
def _roi_align(features, rois, scale, sample_num, end, out, bad):
    """out[r, c, i, j] = the mean of the samples of bin (i, j) of roi r
    over features[batch, c]; bad[0] = 1 where a roi's batch is not one of
    features', or one of its values is not finite."""
    channels, bins_h, bins_w = out.shape[1], out.shape[2], out.shape[3]
    for t in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        j, i = t % bins_w, (t // bins_w) % bins_h
        c, r = (t // (bins_w * bins_h)) % channels, t // (bins_w * bins_h * channels)
        batch = np.float64(rois[r, 0])
        x1, y1 = np.float64(rois[r, 1]), np.float64(rois[r, 2])
        x2, y2 = np.float64(rois[r, 3]), np.float64(rois[r, 4])
        if not -1 < batch < features.shape[0] or not (
                math.isfinite(x1) and math.isfinite(y1) and math.isfinite(x2)
                and math.isfinite(y2)):
            bad[0] = 1
            out[r, c, i, j] = 0
            continue
        start_x, start_y = x1 * scale, y1 * scale
        width = (x2 + end) * scale - start_x
        height = (y2 + end) * scale - start_y
        width, height = (width if width > 1.0 else 1.0), (height if height > 1.0 else 1.0)
        bin_h, bin_w = height / bins_h, width / bins_w
        grid_h = _samples(height, bins_h, sample_num)
        grid_w = _samples(width, bins_w, sample_num)
        total = 0.0
        for a in range(grid_h):
            for b in range(grid_w):
                total += _bilinear(features, np.int64(batch), c,
                                   start_y + i * bin_h + (a + 0.5) * bin_h / grid_h,
                                   start_x + j * bin_w + (b + 0.5) * bin_w / grid_w)
        out[r, c, i, j] = total / (grid_h * grid_w)


def roi_align(features, rois, pooled_height, pooled_width, spatial_scale, sample_num=2,
              roi_end_mode=1):
    """ROIAlign; declines float16, shapes the reference refuses and (found
    on the device, the flag read back) a roi naming no batch or holding a
    value that is not finite."""
    if features.dtype not in (np.float32, np.float64) or features.ndim != 4 \
            or rois.ndim != 2 or rois.shape[1] != 5 or rois.dtype != features.dtype:
        return None
    shape = (rois.shape[0], features.shape[1], int(pooled_height), int(pooled_width))
    if min(shape[2:]) < 1:
        return None
    out = device.empty(shape, features.dtype)
    if not out.size:
        return out
    bad = filled((1,), np.zeros((), np.int32))
    device.launch(_roi_align, out.size, features, rois, float(spatial_scale),
                  int(sample_num), float(roi_end_mode), out, bad)
    return None if device.to_host(bad)[0] else out


KERNELS = {"GridSampler2D": grid_sample, "GridSampler3D": grid_sample,
           "ROIAlign": roi_align}
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"grid sample, {dtype}", _grid_sample,
        f"void({dtype}[:, :, ::1], float32[:, :, ::1], int64[::1], boolean, int64,"
        f" boolean, {dtype}[:, :, ::1])") for dtype in ("float32", "float64")]
PTX += [(f"roi align, {dtype}", _roi_align,
         f"void({dtype}[:, :, :, ::1], {dtype}[:, ::1], float64, int64, float64,"
         f" {dtype}[:, :, :, ::1], int32[::1])") for dtype in ("float32", "float64")]
