"""Sliding-window geometry shared by the convolutions and the pools.

All helpers work on channel-first arrays (N, C, *spatial) with any number of
spatial axes (1-D, 2-D, 3-D); :func:`to_nchw` / :func:`from_nchw` wrap NHWC
callers. Padding is given per spatial axis as ``((before, after), ...)``,
for 2-D ``((top, bottom), (left, right))``.

SAME padding is MindSpore's (and TensorFlow's): the output has
``ceil(size / stride)`` positions and the total padding
``max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)`` is split
with the smaller half first (top/left), the odd element last (bottom/right).
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

Pads = tuple[tuple[int, int], ...]


def extent(kernel: int, dilation: int) -> int:
    """Input span of one (dilated) window along one axis."""
    return (kernel - 1) * dilation + 1


def check_geometry(axes: int, kernel, stride, dilation, pads=None) -> None:
    """Kernel, stride and dilation must be positive on every spatial axis
    (a mutated model may give 0, which would divide by zero or make an
    empty window), and each of them and the padding must cover every
    spatial axis (a 2-D pool of a 5-D input has too few)."""
    for name, values in (("kernel", kernel), ("stride", stride),
                         ("dilation", dilation)):
        _check_covers(name, values, axes)
        if any(int(v) < 1 for v in values[:axes]):
            raise ValueError(f"window {name} {tuple(values)} must be >= 1 "
                             f"on each of the {axes} spatial axes")
    if pads is not None:
        _check_covers("padding", pads, axes)


def _check_covers(name: str, values, axes: int) -> None:
    if len(values) < axes:
        raise ValueError(f"window {name} {tuple(values)} has {len(values)} "
                         f"value(s), the input has {axes} spatial axes "
                         f"(rank {axes + 2})")


def same_pads(size: int, kernel: int, stride: int,
              dilation: int = 1) -> tuple[int, int]:
    """(before, after) SAME padding along one axis."""
    out = -(-size // stride)
    total = max((out - 1) * stride + extent(kernel, dilation) - size, 0)
    return total // 2, total - total // 2


def resolve_pads(hw, kernel, stride, dilation, pad_mode: str,
                 pads=None) -> Pads:
    """Padding of the spatial axes (as many as ``hw`` has) for a pad_mode.

    ``pads`` (before/after pairs, axis by axis: (top, bottom, left, right)
    in 2-D) is used for "PAD" only (ops without explicit padding, the pools,
    pass None and so reject "PAD"); "VALID" pads nothing; "SAME" computes
    the padding from the geometry.
    """
    check_geometry(len(hw), kernel, stride, dilation)
    axes = range(len(hw))
    if pad_mode == "VALID":
        return tuple((0, 0) for _ in axes)
    if pad_mode == "SAME":
        return tuple(same_pads(hw[i], kernel[i], stride[i], dilation[i])
                     for i in axes)
    if pad_mode == "PAD" and pads is not None:
        if any(p < 0 for p in pads):
            raise ValueError(f"pads {tuple(pads)} must be >= 0")
        return tuple((pads[2 * i], pads[2 * i + 1]) for i in axes)
    raise ValueError(f"unsupported pad_mode {pad_mode!r}")


def output_hw(hw, kernel, stride, dilation, pads: Pads,
              ceil_mode: bool = False) -> tuple[int, ...]:
    """Output size of every spatial axis; ValueError when a window does not
    fit. ``ceil_mode`` (pools) rounds the window count up, as PyTorch: the
    last window may overhang the padded input but must start inside the
    input or its leading padding."""
    check_geometry(len(hw), kernel, stride, dilation, pads)
    out = []
    for i in range(len(hw)):
        padded = hw[i] + pads[i][0] + pads[i][1]
        span = extent(kernel[i], dilation[i])
        if padded < span:
            raise ValueError(f"window of span {span} does not fit the padded "
                             f"input size {padded} (axis {i + 2})")
        size = (padded - span + (stride[i] - 1 if ceil_mode else 0)) \
            // stride[i] + 1
        if ceil_mode and (size - 1) * stride[i] >= hw[i] + pads[i][0]:
            size -= 1
        out.append(size)
    return tuple(out)


def overhang(hw, kernel, stride, dilation, pads: Pads, out) -> Pads:
    """``pads`` grown at the end so every window of an ``out``-sized
    (ceil-mode) output lies inside the padded array."""
    return tuple((before, max(after, (out[i] - 1) * stride[i]
                              + extent(kernel[i], dilation[i])
                              - hw[i] - before))
                 for i, (before, after) in enumerate(pads))


def pad_hw(x: np.ndarray, pads: Pads, value=0) -> np.ndarray:
    """Pad the trailing (spatial) axes of an (N, C, ...) array with a
    constant."""
    if all(p == (0, 0) for p in pads):
        return x
    lead = ((0, 0),) * (x.ndim - len(pads))
    return np.pad(x, lead + tuple(pads), constant_values=value)


def tap(xp: np.ndarray, i: int, j: int, out_hw, stride,
        dilation) -> np.ndarray:
    """The input values that kernel tap (i, j) sees at every output position:
    a strided view of shape (N, C, OH, OW) of the padded input."""
    return tap_nd(xp, (i, j), out_hw, stride, dilation)


def tap_nd(xp: np.ndarray, offsets, out_size, stride,
           dilation) -> np.ndarray:
    """:func:`tap` for any number of spatial axes: kernel tap ``offsets``
    seen at every output position, a view (N, C, *out_size)."""
    index = tuple(slice(k * d, k * d + (o - 1) * s + 1, s) for k, o, s, d
                  in zip(offsets, out_size, stride, dilation))
    return xp[(Ellipsis,) + index]


def windows(xp: np.ndarray, kernel, stride, dilation) -> np.ndarray:
    """All windows of a padded (N, C, *spatial) input as a view
    (N, C, *out, *kernel)."""
    n = len(kernel)
    span = tuple(extent(k, d) for k, d in zip(kernel, dilation))
    view = sliding_window_view(xp, span, axis=tuple(range(xp.ndim - n,
                                                          xp.ndim)))
    return view[(Ellipsis,) + tuple(slice(None, None, s) for s in stride)
                + tuple(slice(None, None, d) for d in dilation)]


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
