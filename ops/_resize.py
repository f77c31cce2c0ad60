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

import numpy as np

from ._common import compute_dtype


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
