"""Source coordinates and separable sampling for the resize ops.

TensorFlow's conventions, which MindSpore's ResizeBilinearV2 and
ResizeNearestNeighbor(V2) CPU kernels follow: with
scale = (in - 1) / (out - 1) if align_corners (and out > 1) else in / out,
output index i samples the input at

- bilinear: src = (i + 0.5) * scale - 0.5 with half_pixel_centers, else
  i * scale; it blends floor(src) and ceil(src), both clamped into
  [0, in - 1], with weight src - floor(src);
- nearest: src = (i + 0.5) * scale with half_pixel_centers, else
  i * scale; the index is round(src) (half away from zero) with
  align_corners, else floor(src), clamped into [0, in - 1].
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .._ref.common import compute_dtype


def _scale(size_in: int, size_out: int, align_corners: bool) -> float:
    if align_corners and size_out > 1:
        return (size_in - 1) / (size_out - 1)
    return size_in / size_out


def nearest_indices(size_in, size_out, align_corners, half_pixel_centers):
    """The input index each output index copies."""
    scale = _scale(size_in, size_out, align_corners)
    src = np.arange(size_out, dtype=np.float64)
    src = (src + 0.5) * scale if half_pixel_centers else src * scale
    index = np.floor(src + 0.5) if align_corners else np.floor(src)
    return np.clip(index.astype(np.int64), 0, size_in - 1)


def linear_weights(size_in, size_out, align_corners, half_pixel_centers):
    """(lower index, upper index, weight of the upper one) per output."""
    scale = _scale(size_in, size_out, align_corners)
    src = np.arange(size_out, dtype=np.float64)
    src = (src + 0.5) * scale - 0.5 if half_pixel_centers else src * scale
    floor = np.floor(src)
    lower = np.clip(floor, 0, size_in - 1).astype(np.int64)
    upper = np.clip(np.ceil(src), 0, size_in - 1).astype(np.int64)
    return lower, upper, src - floor


def check_image(op: str, image: np.ndarray, size) -> None:
    """The 2-D resize ops take an (N, C, H, W) image and two sizes."""
    if image.ndim != 4 or len(size) != 2:
        raise ValueError(f"{op}: 4-D image and 2 sizes expected, got "
                         f"{image.shape} and {size}")


def resize(x: np.ndarray, size, mode: str, align_corners: bool,
           half_pixel_centers: bool) -> np.ndarray:
    """Resize the trailing len(size) axes of x, one axis at a time
    ("nearest" or "linear"; bilinear is linear along H then W)."""
    if any(int(s) <= 0 for s in size):
        raise ValueError(f"resize: output size {tuple(size)} must be positive")
    first = x.ndim - len(size)
    if mode == "nearest":
        y = x
        for k, out in enumerate(size):
            index = nearest_indices(x.shape[first + k], int(out),
                                    align_corners, half_pixel_centers)
            y = np.take(y, index, axis=first + k)
        return y
    work = compute_dtype(x.dtype)
    y = x.astype(work, copy=False)
    for k, out in enumerate(size):
        axis = first + k
        lower, upper, weight = linear_weights(x.shape[axis], int(out),
                                              align_corners,
                                              half_pixel_centers)
        shape = [1] * x.ndim
        shape[axis] = int(out)
        weight = weight.astype(work).reshape(shape)
        low, high = np.take(y, lower, axis=axis), np.take(y, upper, axis=axis)
        y = low + (high - low) * weight
    return y.astype(x.dtype, copy=False)


# -- numba backend -------------------------------------------------------------
# Both kernels see the input as (planes, D, H, W): every leading axis folded
# into the planes, 1-D and 2-D resizes given unit leading spatial axes.
from refinfer.jit import kernel  # noqa: E402
from refinfer.threads import min_items, parallel_for  # noqa: E402

from . import program as _fast  # noqa: E402

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
    """:func:`resize` with the Numba kernels: "nearest" for every dtype of
    1, 2, 4 or 8 bytes (moved as unsigned words), "linear" for float32 and
    float64; other cases go to the reference."""
    rank, nearest = len(size), mode == "nearest"
    word = f"u{x.dtype.itemsize}" if x.dtype.itemsize in (1, 2, 4, 8) else None
    if not 1 <= rank <= 3 or x.ndim < rank or 0 in x.shape[x.ndim - rank:] \
            or any(int(s) <= 0 for s in size) \
            or (word is None if nearest else _fast.float_operands(x) is None):
        return resize(x, size, mode, align_corners, half_pixel_centers)
    lead = x.shape[:x.ndim - rank]
    planes = int(np.prod(lead, dtype=np.int64))
    src = _fast.writable(x).reshape(
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
