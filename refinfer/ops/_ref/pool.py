"""N-dimensional max / average pooling and adaptive pooling.

Shared by MaxPool3D, AvgPool3D, MaxPool3DWithArgmax, the adaptive pools and
the mint pools. Inputs are (N, C, *spatial); the pools loop over the
kernel taps, never over output pixels; the adaptive pools gather every
bin's taps at once.

The ops' argument checks and resolutions are here too, each taking the
``pool`` to run: one of the functions above for the references, their
twin in ops/_kernels/window.py (which returns None where it declines) for
the kernels.
"""
from __future__ import annotations

import numpy as np

from refinfer import args

from . import window as win
from .common import compute_dtype
from .conv import spatial_ints


def _lowest(dtype: np.dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def max_pool(x: np.ndarray, kernel, stride, dilation, pads,
             ceil_mode: bool = False, argmax: bool = False):
    """Max over each window; with ``argmax`` also the position of the
    maximum as a flat index into the input's spatial axes (first maximum
    on ties, a NaN wins). Padding never wins (it is the dtype's lowest).

    Returns y, or (y, indices int64) with ``argmax``.
    """
    spatial = x.shape[2:]
    out = win.output_hw(spatial, kernel, stride, dilation, pads, ceil_mode)
    full = win.overhang(spatial, kernel, stride, dilation, pads, out)
    xp = win.pad_hw(x, full, _lowest(x.dtype))
    where = win.pad_hw(np.arange(int(np.prod(spatial)), dtype=np.int64)
                       .reshape((1, 1) + spatial), full, -1)
    y = index = None
    for tap in np.ndindex(*kernel):
        values = win.tap_nd(xp, tap, out, stride, dilation)
        if y is None:
            y = values.copy()
            index = np.broadcast_to(
                win.tap_nd(where, tap, out, stride, dilation), y.shape).copy()
            continue
        better = (values > y) | (np.isnan(values) & ~np.isnan(y)) \
            if x.dtype.kind == "f" else values > y
        y[better] = values[better]
        if argmax:
            index[better] = np.broadcast_to(
                win.tap_nd(where, tap, out, stride, dilation), y.shape)[better]
    return (y, index) if argmax else y


def window_counts(size, kernel, stride, pads, out, include_pad: bool):
    """Per output position along one axis: how many window elements the
    average divides by. PyTorch's rule (MindSpore's AvgPool3D agrees):
    windows are clipped to the padded input, so the ceil-mode overhang is
    never counted; without ``include_pad`` only real elements count."""
    before, after = pads
    starts = np.arange(out) * stride - before
    ends = np.minimum(starts + kernel, size + after)
    if not include_pad:
        starts, ends = np.maximum(starts, 0), np.minimum(ends, size)
    return ends - starts


def avg_pool(x: np.ndarray, kernel, stride, pads, ceil_mode: bool = False,
             count_include_pad: bool = True, divisor_override: int = 0):
    """Mean over each window: the window sum divided by divisor_override
    when non-zero, else by the window size (see :func:`window_counts`)."""
    spatial = x.shape[2:]
    ones = (1,) * len(spatial)
    out = win.output_hw(spatial, kernel, stride, ones, pads, ceil_mode)
    full = win.overhang(spatial, kernel, stride, ones, pads, out)
    work = compute_dtype(x.dtype)
    xp = win.pad_hw(x.astype(work, copy=False), full)
    total = np.zeros(x.shape[:2] + out, dtype=work)
    for tap in np.ndindex(*kernel):
        total += win.tap_nd(xp, tap, out, stride, ones)
    if divisor_override:
        divisor = work.type(divisor_override)
    else:
        divisor = np.ones(out, dtype=work)
        for axis, size in enumerate(spatial):
            counts = window_counts(size, kernel[axis], stride[axis],
                                   pads[axis], out[axis], count_include_pad)
            shape = [1] * len(spatial)
            shape[axis] = out[axis]
            divisor = divisor * counts.reshape(shape)
    return (total / divisor).astype(x.dtype, copy=False)


def adaptive_bins(size: int, out: int) -> tuple[np.ndarray, np.ndarray]:
    """Bin i of an adaptive pool covers [floor(i*size/out),
    ceil((i+1)*size/out)): (starts, ends), int64 arrays of ``out``.
    Vectorised, like everything here that grows with the output: an
    output size from a corrupt file (2^31) then fails allocating at C
    speed instead of looping in Python for hours."""
    i = np.arange(out, dtype=np.int64)
    return i * size // out, -(-(i + 1) * size // out)


def adaptive_taps(size: int, out: int) -> tuple[np.ndarray, np.ndarray]:
    """The input positions of each adaptive bin along one axis, padded to
    the widest bin: (taps (out, width) clipped into the axis, inside: which
    taps belong to their bin)."""
    starts, ends = adaptive_bins(size, out)
    width = int((ends - starts).max(initial=1))
    taps = starts[:, None] + np.arange(width)
    return np.minimum(taps, size - 1), taps < ends[:, None]


def _resolved(spatial, out_size) -> tuple:
    """Output sizes with None / -1 replaced by the input's size."""
    return tuple(s if o in (None, -1) else o for s, o in zip(spatial, out_size))


def adaptive_avg_pool(x: np.ndarray, out_size) -> np.ndarray:
    """Adaptive average pooling over the trailing len(out_size) axes; an
    entry None or -1 keeps that axis. Means are separable, so one axis at a
    time: each bin's values gathered (padded to the widest bin), summed
    where inside the bin, divided by the bin's length."""
    y = x.astype(compute_dtype(x.dtype), copy=False)
    first = x.ndim - len(out_size)
    for axis, out in enumerate(_resolved(x.shape[first:], out_size), first):
        taps, inside = adaptive_taps(y.shape[axis], out)
        window = np.take(y, taps, axis=axis)   # (..., out, width, ...)
        mask = inside.reshape(inside.shape + (1,) * (y.ndim - axis - 1))
        y = (np.where(mask, window, 0).sum(axis=axis + 1)
             / mask.sum(axis=1).astype(y.dtype))
    return y.astype(x.dtype, copy=False)


def adaptive_max_pool(x: np.ndarray, out_size):
    """Adaptive max pooling over the trailing axes, with the flat index of
    each maximum into those axes (first maximum on ties, the first NaN
    wins as in :func:`max_pool`; None / -1 keeps an axis). Returns (y,
    indices int64). Every output cell's window is gathered at once, its
    taps in row-major order so that argmax finds the first maximum; taps
    outside a bin read -inf, which never wins over a tap inside (the first
    tap of a window always lies inside)."""
    rank = len(out_size)
    spatial = x.shape[x.ndim - rank:]
    out_size = _resolved(spatial, out_size)
    lead = x.shape[:x.ndim - rank]
    flat = x.reshape(lead + (int(np.prod(spatial)),))  # -1 fails on N = 0
    strides = np.cumprod((1,) + spatial[:0:-1])[::-1]
    position = np.zeros((1,) * 2 * rank, np.int64)
    inside = np.ones((1,) * 2 * rank, bool)
    for a, (size, out) in enumerate(zip(spatial, out_size)):
        taps, within = adaptive_taps(size, out)
        shape = [1] * 2 * rank
        shape[a], shape[rank + a] = taps.shape
        position = position + taps.reshape(shape) * strides[a]
        inside = inside & within.reshape(shape)
    cells = position.shape[:rank] + (int(np.prod(position.shape[rank:])),)
    position, inside = position.reshape(cells), inside.reshape(cells)
    window = np.where(inside, flat[..., position], _lowest(x.dtype))
    best = window.argmax(axis=-1)       # the first NaN, else first maximum
    y = np.take_along_axis(window, best[..., None], -1)[..., 0]
    return y, np.take_along_axis(np.broadcast_to(position, window.shape),
                                 best[..., None], -1)[..., 0]


def check_output_size(op: str, input, output_size) -> None:
    """An adaptive pool pools at most all of the input's axes, none of
    them empty (a bin of an empty axis has nothing to pool)."""
    if len(output_size) > input.ndim or 0 in input.shape[
            input.ndim - len(output_size):]:
        raise ValueError(f"{op}: output_size {output_size} for input "
                         f"{input.shape}")


def pool_pad_mode(value):
    """A pool's pad_mode: "VALID", "SAME", or "PAD" (the 3-D pools export
    explicit padding as "CALCULATED"); codes as for Conv2D."""
    if isinstance(value, str) and value.upper() == "CALCULATED":
        return "PAD"
    return args.pad_mode(value)


def max_pool3d_with(pool, x, kernel_size, strides, pad_mode, pad_list,
                    ceil_mode, data_format):
    """MaxPool3D's arguments checked and resolved for ``pool``."""
    if x.ndim != 5 or data_format != "NCDHW":
        raise ValueError(f"MaxPool3D: NCDHW input expected, got {x.shape}")
    pads = win.resolve_pads(x.shape[2:], kernel_size, strides, (1, 1, 1),
                            pad_mode, pad_list)
    return pool(x, kernel_size, strides, (1, 1, 1), pads,
                ceil_mode and pad_mode == "PAD")


def avg_pool3d_with(pool, input, kernel_size, strides, pad_mode, pad,
                    ceil_mode, count_include_pad, divisor_override,
                    data_format, pad_list):
    """AvgPool3D's arguments checked and resolved for ``pool``."""
    if input.ndim != 5 or data_format != "NCDHW":
        raise ValueError(f"AvgPool3D: NCDHW input expected, got "
                         f"{input.shape}")
    explicit = pad_list if pad_list is not None else pad
    pads = win.resolve_pads(input.shape[2:], kernel_size, strides, (1, 1, 1),
                            pad_mode, explicit)
    return pool(input, kernel_size, strides, pads,
                ceil_mode and pad_mode == "PAD", count_include_pad,
                int(divisor_override))


def argmax_dtype(value) -> np.dtype:
    """The index dtype: "int32" / "int64", a TypeId, or Lite's codes 3 / 4
    (MaxPoolWithArgmaxV2)."""
    if isinstance(value, (int, np.integer)) and int(value) in (3, 4):
        return np.dtype(np.int32 if int(value) == 3 else np.int64)
    return args.dtype(value)


def pool_with_argmax(pool, x, kernel, strides, pads, dilation, ceil_mode,
                     argmax_type):
    """(y, argmax as argmax_type) of ``pool`` with ``pads`` on both sides
    of each axis; strides None means the kernel size."""
    strides = kernel if strides is None else strides
    pooled = pool(x, kernel, strides, dilation, tuple((p, p) for p in pads),
                  ceil_mode, argmax=True)
    if pooled is None:
        return None
    return pooled[0], pooled[1].astype(argmax_type)


def check_ncdhw(x, data_format):
    if x.ndim != 5 or data_format != "NCDHW":
        raise ValueError(f"MaxPool3DWithArgmax: NCDHW input expected, got "
                         f"{x.shape}")


def max_pool_with_argmax_pads(x, kernel_size, strides, pad_mode, data_format):
    """MaxPoolWithArgmax's (the classic primitive's) input checked and its
    pads resolved: ((before, after), (before, after))."""
    if x.ndim != 4 or data_format != "NCHW":
        raise ValueError(f"MaxPoolWithArgmax: NCHW input expected, got "
                         f"{x.shape}")
    pads = win.resolve_pads(x.shape[2:], kernel_size, strides, (1, 1),
                            pad_mode)
    if pad_mode == "SAME":
        pads = _legacy_same_split(kernel_size, strides, pads)
    return pads


def max_pool_with_argmax_with(pool, x, kernel_size, strides, pad_mode,
                              data_format):
    """MaxPoolWithArgmax (the classic primitive) with ``pool``."""
    pads = max_pool_with_argmax_pads(x, kernel_size, strides, pad_mode, data_format)
    pooled = pool(x, kernel_size, strides, (1, 1), pads, argmax=True)
    if pooled is None:
        return None
    y, index = pooled
    plane = x.shape[2] * x.shape[3]  # the index counts earlier channels too
    index += np.arange(x.shape[1]).reshape(1, -1, 1, 1) * plane
    return y, index.astype(np.int32)


def _legacy_same_split(kernel, strides, pads):
    """SAME padding re-split as MaxPoolWithArgmax's CPU kernel does:
    max((k - s) // 2, 0) before, the rest of the same total after."""
    split = []
    for k, s, (before, after) in zip(kernel, strides, pads):
        first = min(max((k - s) // 2, 0), before + after)
        split.append((first, before + after - first))
    return tuple(split)


def batched(input, rank, pool):
    """Run ``pool`` on (N, C, *S); an unbatched (C, *S) input gets N = 1."""
    if input.ndim == rank + 1:
        out = pool(input[None])
        if out is None:
            return None
        return tuple(o[0] for o in out) if isinstance(out, tuple) else out[0]
    if input.ndim != rank + 2:
        raise ValueError(f"{rank}-D pooling of an input of shape "
                         f"{input.shape}")
    return pool(input)


def torch_avg_pool(pool, rank, input, kernel_size, stride, padding,
                   ceil_mode, count_include_pad, divisor_override):
    """A rank-D mint average pool with ``pool``."""
    per_axis = spatial_ints(rank)
    kernel = per_axis(kernel_size)
    stride = kernel if stride is None or not stride else per_axis(stride)
    pads = tuple((p, p) for p in per_axis(padding))
    return batched(input, rank, lambda x: pool(
        x, kernel, stride, pads, ceil_mode, count_include_pad,
        int(divisor_override or 0)))


def max_pool_with_indices_with(pool, x, kernel_size, strides, pads,
                               dilation, ceil_mode, argmax_type):
    """MaxPoolWithIndices with ``pool``."""
    return batched(x, 2, lambda batch: pool_with_argmax(
        pool, batch, kernel_size, strides, pads, dilation, ceil_mode,
        argmax_type))
