"""Sliding-window geometry shared by Conv2D, MaxPool and AvgPool.

All helpers work on NCHW arrays; :func:`to_nchw` / :func:`from_nchw` wrap
NHWC callers. Padding is given as ``((top, bottom), (left, right))``.

SAME padding is MindSpore's (and TensorFlow's): the output has
``ceil(size / stride)`` positions and the total padding
``max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)`` is split
with the smaller half first (top/left), the odd element last (bottom/right).
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

Pads = tuple[tuple[int, int], tuple[int, int]]


def extent(kernel: int, dilation: int) -> int:
    """Input span of one (dilated) window along one axis."""
    return (kernel - 1) * dilation + 1


def same_pads(size: int, kernel: int, stride: int,
              dilation: int = 1) -> tuple[int, int]:
    """(before, after) SAME padding along one axis."""
    out = -(-size // stride)
    total = max((out - 1) * stride + extent(kernel, dilation) - size, 0)
    return total // 2, total - total // 2


def resolve_pads(hw: tuple[int, int], kernel, stride, dilation,
                 pad_mode: str, pads=None) -> Pads:
    """Padding of the two spatial axes for a canonical pad_mode.

    ``pads`` (top, bottom, left, right) is used for "PAD" only (ops without
    explicit padding, the pools, pass None and so reject "PAD"); "VALID"
    pads nothing; "SAME" computes the padding from the geometry.
    """
    if pad_mode == "VALID":
        return (0, 0), (0, 0)
    if pad_mode == "SAME":
        return tuple(same_pads(hw[i], kernel[i], stride[i], dilation[i])
                     for i in range(2))
    if pad_mode == "PAD" and pads is not None:
        top, bottom, left, right = pads
        return (top, bottom), (left, right)
    raise ValueError(f"unsupported pad_mode {pad_mode!r}")


def output_hw(hw, kernel, stride, dilation, pads: Pads) -> tuple[int, int]:
    """Output height and width; ValueError when a window does not fit."""
    out = []
    for i in range(2):
        padded = hw[i] + pads[i][0] + pads[i][1]
        span = extent(kernel[i], dilation[i])
        if padded < span:
            raise ValueError(f"window of span {span} does not fit the padded "
                             f"input size {padded} (axis {i + 2})")
        out.append((padded - span) // stride[i] + 1)
    return tuple(out)


def pad_hw(x: np.ndarray, pads: Pads, value=0) -> np.ndarray:
    """Pad the last two axes of an NCHW array with a constant."""
    if pads == ((0, 0), (0, 0)):
        return x
    return np.pad(x, ((0, 0), (0, 0)) + tuple(pads), constant_values=value)


def tap(xp: np.ndarray, i: int, j: int, out_hw, stride,
        dilation) -> np.ndarray:
    """The input values that kernel tap (i, j) sees at every output position:
    a strided view of shape (N, C, OH, OW) of the padded input."""
    top, left = i * dilation[0], j * dilation[1]
    return xp[:, :,
              top:top + (out_hw[0] - 1) * stride[0] + 1:stride[0],
              left:left + (out_hw[1] - 1) * stride[1] + 1:stride[1]]


def windows(xp: np.ndarray, kernel, stride, dilation) -> np.ndarray:
    """All windows of a padded NCHW input as a view (N, C, OH, OW, kh, kw)."""
    span = (extent(kernel[0], dilation[0]), extent(kernel[1], dilation[1]))
    view = sliding_window_view(xp, span, axis=(2, 3))
    return view[:, :, ::stride[0], ::stride[1], ::dilation[0], ::dilation[1]]


def to_nchw(x: np.ndarray, data_format: str) -> np.ndarray:
    if data_format == "NCHW":
        return x
    if data_format == "NHWC":
        return x.transpose(0, 3, 1, 2)
    raise ValueError(f"unsupported data_format {data_format!r}")


def from_nchw(y: np.ndarray, data_format: str) -> np.ndarray:
    if data_format == "NHWC":
        y = y.transpose(0, 2, 3, 1)
    return np.ascontiguousarray(y)


def check_4d(x: np.ndarray, op: str) -> None:
    if x.ndim != 4:
        raise ValueError(f"{op}: input must be 4-D, got shape {x.shape}")
