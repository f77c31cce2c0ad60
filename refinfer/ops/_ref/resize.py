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

The ops' argument checks are here too, each taking the ``sample`` to run:
:func:`resize` for the references, its twin in ops/_kernels/resize.py
(which returns None where it declines) for the kernels.
"""
from __future__ import annotations

import math

import numpy as np

from refinfer.errors import describe_value

from .common import FLOATS, compute_dtype, require_dtype, require_tensors


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
    """The 2-D resize ops take an (N, C, H, W) image and two positive
    sizes."""
    if image.ndim != 4 or len(size) != 2:
        raise ValueError(f"{op}: 4-D image and 2 sizes expected, got "
                         f"{image.shape} and {size}")
    if min(size) <= 0:
        raise ValueError(f"{op}: output size {tuple(size)} must be positive")


def resize(x: np.ndarray, size, mode: str, align_corners: bool,
           half_pixel_centers: bool) -> np.ndarray:
    """Resize the trailing len(size) axes of x, one axis at a time
    ("nearest" or "linear"; bilinear is linear along H then W)."""
    if any(int(s) <= 0 for s in size):
        raise ValueError(f"resize: output size {tuple(size)} must be positive")
    first = x.ndim - len(size)
    if first < 0:
        raise ValueError(f"resize: {len(size)} output sizes for an input of "
                         f"rank {x.ndim}")
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


def resize_bilinear_with(sample, image, size, align_corners,
                         half_pixel_centers):
    """ResizeBilinearV2 with ``sample``."""
    if align_corners and half_pixel_centers:
        raise ValueError("ResizeBilinearV2: align_corners and "
                         "half_pixel_centers cannot both be set")
    check_image("ResizeBilinearV2", image, size)
    require_dtype("ResizeBilinearV2", "image", image, FLOATS)
    return sample(image, size, "linear", align_corners, half_pixel_centers)


def resize_nearest_with(sample, image, size, align_corners, half_pixel_centers):
    """ResizeNearestNeighborV2 with ``sample``."""
    check_image("ResizeNearestNeighborV2", image, size)
    return sample(image, size, "nearest", align_corners, half_pixel_centers)


def upsample_with(sample, x, output_size, scales, ranks, mode,
                  align_corners=False):
    """An Upsample op with ``sample``: out = output_size or floor(in *
    scale) over the trailing ``rank`` axes, x being (N, C, *rank axes)
    with rank one of ``ranks`` (those the op takes)."""
    require_tensors("Upsample", x=x)
    if mode == "linear":     # (nearest copies any dtype)
        require_dtype("Upsample", "x", x, FLOATS)
    rank = x.ndim - 2
    if rank not in ranks:
        expected = " or ".join(f"{r + 2}-D" for r in ranks)
        raise ValueError(f"Upsample: {expected} input expected, got "
                         f"{describe_value(x)}")
    size = _output_size(x, output_size, scales, rank)
    return sample(x, size, mode, align_corners,
                  mode == "linear" and not align_corners)


def _output_size(x, output_size, scales, rank):
    """The output size: output_size, else floor(in * scale) per axis."""
    if output_size is not None:
        return tuple(int(s) for s in output_size)
    if scales is None:
        raise ValueError("Upsample: give output_size or scales")
    scales = scales * rank if len(scales) == 1 else scales
    return tuple(math.floor(size * s)
                 for size, s in zip(x.shape[x.ndim - rank:], scales))


def resize_linear1d_with(sample, x, size, mode):
    """ResizeLinear1D with ``sample``."""
    require_dtype("ResizeLinear1D", "x", x, FLOATS)
    return sample(x, size[-1:], "linear", mode == "align_corners",
                  mode == "half_pixel")
