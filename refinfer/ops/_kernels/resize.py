"""Resize kernels (``numba`` backend of ResizeBilinearV2,
ResizeNearestNeighbor(V2), the Upsample ops and ResizeLinear1D; the
sampling rules are ops/_ref/resize.py's).

Both kernels see the input as (planes, D, H, W): every leading axis folded
into the planes, 1-D and 2-D resizes given unit leading spatial axes.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from refinfer.jit import kernel
from refinfer.threads import min_items, parallel_for

from . import program
from .._ref import resize as _resize
from .._ref.resize import linear_weights, nearest_indices

_KEPT = np.zeros((0, 2), np.int64)      # the pairs of an axis not resized


@kernel
def nearest_planes(src, dst, rows_d, rows_h, columns):
    """dst[p, i, j, k] = src[p, rows_d[i], rows_h[j], columns[k]]; a row
    that repeats the one before (upsampling) is copied from it."""
    for p in range(dst.shape[0]):
        for i in range(dst.shape[1]):
            for j in range(dst.shape[2]):
                a, b = rows_d[i], rows_h[j]
                if j and b == rows_h[j - 1]:
                    for k in range(dst.shape[3]):
                        dst[p, i, j, k] = dst[p, i, j - 1, k]
                    continue
                for k in range(dst.shape[3]):
                    dst[p, i, j, k] = src[p, a, b, columns[k]]


@kernel
def depth_row(src, p, od, ih, pairs_d, weight_d, out):
    """out = row ih of output depth od after the depth pass (a copy of the
    input row when the depth is not resized)."""
    if pairs_d.shape[0] == 0:
        for k in range(out.size):
            out[k] = src[p, od, ih, k]
        return
    lo, hi, w = pairs_d[od, 0], pairs_d[od, 1], weight_d[od]
    for k in range(out.size):
        low = src[p, lo, ih, k]
        out[k] = low + (src[p, hi, ih, k] - low) * w


@kernel
def linear_planes(src, dst, pairs_d, pairs_h, pairs_w, weight_d, weight_h,
                  weight_w):
    """Linear resize of every plane, one axis after the other (D, H, W) as
    the reference does, with its formula low + (high - low) * weight in
    the input's dtype, so the results agree to the bit. ``pairs_*`` hold
    (lower, upper) input indices per output index, none for an axis that
    is not resized."""
    low = np.empty(src.shape[3], src.dtype)
    high, row = np.empty_like(low), np.empty_like(low)
    for p in range(dst.shape[0]):
        for od in range(dst.shape[1]):
            for oh in range(dst.shape[2]):
                if pairs_h.shape[0] == 0:
                    depth_row(src, p, od, oh, pairs_d, weight_d, row)
                else:
                    depth_row(src, p, od, pairs_h[oh, 0], pairs_d, weight_d, low)
                    depth_row(src, p, od, pairs_h[oh, 1], pairs_d, weight_d, high)
                    w = weight_h[oh]
                    for k in range(row.size):
                        row[k] = low[k] + (high[k] - low[k]) * w
                if pairs_w.shape[0] == 0:
                    for k in range(row.size):
                        dst[p, od, oh, k] = row[k]
                    continue
                for k in range(dst.shape[3]):
                    a = row[pairs_w[k, 0]]
                    dst[p, od, oh, k] = a + (row[pairs_w[k, 1]] - a) * weight_w[k]


@lru_cache(maxsize=256)
def _nearest_table(size_in, size_out, align_corners, half_pixel_centers):
    """The input index of every output index along one axis."""
    return nearest_indices(size_in, size_out, align_corners, half_pixel_centers)


@lru_cache(maxsize=256)
def _linear_table(size_in, size_out, align_corners, half_pixel_centers, dtype):
    """((lower, upper) pairs, weights in ``dtype``) of one axis."""
    lower, upper, weight = linear_weights(size_in, size_out, align_corners,
                                          half_pixel_centers)
    return np.stack([lower, upper], axis=1), weight.astype(dtype)


def fast_resize(x: np.ndarray, size, mode: str, align_corners: bool,
                half_pixel_centers: bool) -> np.ndarray:
    """ops/_ref/resize.resize with the Numba kernels: "nearest" for every
    dtype of 1, 2, 4 or 8 bytes (moved as unsigned words), "linear" for
    float32 and float64; None for other cases."""
    rank, nearest = len(size), mode == "nearest"
    word = f"u{x.dtype.itemsize}" if x.dtype.itemsize in (1, 2, 4, 8) else None
    if not 1 <= rank <= 3 or x.ndim < rank or 0 in x.shape[x.ndim - rank:] \
            or any(int(s) <= 0 for s in size) \
            or (word is None if nearest else program.float_operands(x) is None):
        return None
    lead = x.shape[:x.ndim - rank]
    planes = int(np.prod(lead, dtype=np.int64))
    src = program.writable(x).reshape(
        (planes,) + (1,) * (3 - rank) + x.shape[x.ndim - rank:])
    out = tuple(int(s) for s in size)
    dst = np.empty((planes,) + (1,) * (3 - rank) + out, x.dtype)
    flags = (align_corners, half_pixel_centers)
    axes = tuple(zip(src.shape[4 - rank:], out))
    if nearest:
        tables = [np.zeros(1, np.int64)] * (3 - rank) + [
            _nearest_table(*axis, *flags) for axis in axes]
        src_words, dst_words = src.view(word), dst.view(word)

        def run(lo, hi):
            nearest_planes(src_words[lo:hi], dst_words[lo:hi], *tables)
    else:
        pairs, weights = zip(*([(_KEPT, np.zeros(0, x.dtype))] * (3 - rank) + [
            _linear_table(*axis, *flags, x.dtype) for axis in axes]))

        def run(lo, hi):
            linear_planes(src[lo:hi], dst[lo:hi], *pairs, *weights)
    parallel_for(planes, run, grain=min_items(dst[0].size if planes else 1))
    return dst.reshape(lead + out)


# -- the ops' kernels: their references' argument handling with fast_resize ----------
def resize_bilinear_v2(image, size, align_corners=False,
                       half_pixel_centers=False):
    """ResizeBilinearV2 (float32/float64)."""
    return _resize.resize_bilinear_with(fast_resize, image, size,
                                        align_corners, half_pixel_centers)


def resize_nearest_neighbor_v2(image, size, align_corners=False,
                               half_pixel_centers=False):
    """ResizeNearestNeighborV2 (elements of 1, 2, 4 or 8 bytes)."""
    return _resize.resize_nearest_with(fast_resize, image, size,
                                       align_corners, half_pixel_centers)


def resize_nearest_neighbor(input_x, size, align_corners=False,
                            half_pixel_centers=False):
    """ResizeNearestNeighbor: half_pixel_centers ignored, as the
    reference's."""
    return _resize.resize_nearest_with(fast_resize, input_x, size,
                                       align_corners, False)


def upsample_nearest(x, output_size=None, scales=None):
    """UpsampleNearest1D/2D/3D (elements of 1, 2, 4 or 8 bytes)."""
    return _resize.upsample_with(fast_resize, x, output_size, scales,
                                 (1, 2, 3), "nearest")


def upsample_linear(x, output_size=None, scales=None, align_corners=False):
    """UpsampleLinear1D / UpsampleBilinear2D (float32/float64)."""
    return _resize.upsample_with(fast_resize, x, output_size, scales,
                                 (1, 2), "linear", align_corners)


def upsample_trilinear3d(x, output_size=None, scales=None,
                         align_corners=False):
    """UpsampleTrilinear3D (float32/float64)."""
    return _resize.upsample_with(fast_resize, x, output_size, scales, (3,),
                                 "linear", align_corners)


def resize_linear1d(x, size, coordinate_transformation_mode="align_corners"):
    """ResizeLinear1D (float32/float64)."""
    return _resize.resize_linear1d_with(fast_resize, x, size,
                                        coordinate_transformation_mode)


# -- ROIAlign --------------------------------------------------------------------------
@kernel
def _roi_sample(plane, y, x, weights):
    """Caffe2's bilinear ROIAlign sample of a (H, W) plane at (y, x), as the
    reference's ``_bilinear``: weights and the four taps written to weights
    (w00, w01, w10, w11, y0, y1, x0, x1); False where the point is dropped."""
    height, width = plane.shape
    if y < -1.0 or y > height or x < -1.0 or x > width:
        return False
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = min(int(y), height - 1), min(int(x), width - 1)
    y1, x1 = min(y0 + 1, height - 1), min(x0 + 1, width - 1)
    if y0 == height - 1:
        y = float(y0)
    if x0 == width - 1:
        x = float(x0)
    ly, lx = y - y0, x - x0
    weights[0], weights[1] = (1 - ly) * (1 - lx), (1 - ly) * lx
    weights[2], weights[3] = ly * (1 - lx), ly * lx
    weights[4], weights[5], weights[6], weights[7] = y0, y1, x0, x1
    return True


@kernel
def roi_align_bins(features, rois, ph, pw, scale, sample_num, end_mode, out):
    """out[r, c, i, j]: the mean of the bin's sample_num ** 2 (or adaptive)
    bilinear samples, for every roi r (batch indices checked by the caller)."""
    weights = np.empty(8)
    for r in range(rois.shape[0]):
        b = int(rois[r, 0])
        start_x, start_y = rois[r, 1] * scale, rois[r, 2] * scale
        width = max((rois[r, 3] + end_mode) * scale - start_x, 1.0)
        height = max((rois[r, 4] + end_mode) * scale - start_y, 1.0)
        bin_h, bin_w = height / ph, width / pw
        grid_h = sample_num if sample_num > 0 else int(np.ceil(height / ph))
        grid_w = sample_num if sample_num > 0 else int(np.ceil(width / pw))
        for c in range(features.shape[1]):
            plane = features[b, c]
            for i in range(ph):
                for j in range(pw):
                    total = 0.0
                    for a in range(grid_h):
                        y = start_y + i * bin_h + (a + 0.5) * bin_h / grid_h
                        for k in range(grid_w):
                            x = start_x + j * bin_w + (k + 0.5) * bin_w / grid_w
                            if _roi_sample(plane, y, x, weights):
                                y0, y1 = int(weights[4]), int(weights[5])
                                x0, x1 = int(weights[6]), int(weights[7])
                                total += (weights[0] * plane[y0, x0]
                                          + weights[1] * plane[y0, x1]
                                          + weights[2] * plane[y1, x0]
                                          + weights[3] * plane[y1, x1])
                    out[r, c, i, j] = total / (grid_h * grid_w)


def roi_align(features, rois, pooled_height, pooled_width, spatial_scale, sample_num=2,
              roi_end_mode=1):
    """ROIAlign for float32/float64 features, accumulating in float64 as the
    reference; None (the reference, and its errors) for anything else."""
    if features.dtype not in (np.float32, np.float64) or features.ndim != 4 \
            or rois.ndim != 2 or rois.shape[1] != 5 or not rois.shape[0] \
            or not np.isfinite(rois).all():
        return None
    batch = rois[:, 0].astype(np.int64)
    if batch.min() < 0 or batch.max() >= features.shape[0]:
        return None
    ph, pw = int(pooled_height), int(pooled_width)
    if ph < 1 or pw < 1:
        return None     # (the reference refuses it)
    out = np.empty((rois.shape[0], features.shape[1], ph, pw), np.float64)
    roi_align_bins(features.astype(np.float64), rois.astype(np.float64), ph, pw,
                   float(spatial_scale), int(sample_num), float(roi_end_mode), out)
    return out.astype(features.dtype)
