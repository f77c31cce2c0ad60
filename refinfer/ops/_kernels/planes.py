"""Numba helpers for kernels that slide windows over image planes (the fast
convolutions and pools).

The trick they share: a zero-padded plane (for stride s, its s x s phases:
phase (a, b) holds the rows a, a+s, ... and the columns b, b+s, ...) is laid
out flat with a row pitch of OW + (kw-1)//s, so that the input of window tap
(p, q) for output (i, j) sits at (i*pitch + j) + a constant shift in one
phase. A whole plane is then one long vectorised loop per tap over
i*pitch + j, computing pitch - OW garbage columns per row that are dropped
when the result is copied out.

Indexing follows ops/program.py: no sub-array views inside loops, and indices
Numba cannot prove non-negative made unsigned.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from refinfer.jit import inlined, kernel
from refinfer.threads import min_items, parallel_for

from . import program
from .._ref import window as win


@inlined
def valid_columns(offset, stride, width, out_width):
    """[j0, j1): the output columns j whose input column j*stride + offset
    lies in [0, width)."""
    j0 = 0 if offset >= 0 else (-offset + stride - 1) // stride
    last = width - 1 - offset
    j1 = 0 if last < 0 else last // stride + 1
    return min(j0, out_width), max(min(j1, out_width), min(j0, out_width))


@inlined
def fill(row, begin, end, value):
    for j in range(begin, end):
        row[j] = value


@inlined
def pad_plane(image, c, top, left, dst):
    """dst = plane c of image (C x H x W) placed at (top, left) in zeros,
    cropped to dst."""
    for i in range(dst.shape[0]):
        for j in range(dst.shape[1]):
            dst[i, j] = 0
    width = np.uint64(max(0, min(image.shape[2], dst.shape[1] - left)))
    for i in range(min(image.shape[1], dst.shape[0] - top)):
        row, col = np.uint64(i + top), np.uint64(left)
        for j in range(width):
            dst[row, col + j] = image[c, i, j]


def layout(kernel_hw, stride, out_hw) -> tuple[int, int, int]:
    """(pitch, rows, length) of the phases of a plane: row pitch, rows per
    phase, and the flat length of each phase (rows * pitch plus the tail
    the garbage columns' shifted reads run into)."""
    pitch = out_hw[1] + (kernel_hw[1] - 1) // stride[1]
    rows = out_hw[0] + (kernel_hw[0] - 1) // stride[0]
    return pitch, rows, rows * pitch + (kernel_hw[1] - 1) // stride[1] + 1


@inlined
def phases(image, top, left, sh, sw, pitch, rows, out):
    """The padded plane ``image`` (H x W) split into sh x sw phases, flat:
    out[a*sw + b, r*pitch + c] = xpad[r*sh + a, c*sw + b], where
    xpad[i, j] = image[i - top, j - left] inside the image. Only those
    places are written: the caller fills ``out`` with the padding value
    once, and planes of one size leave the same places alone."""
    h, w = image.shape
    step = np.uint64(sw)
    for a in range(sh):
        for b in range(sw):
            f = a * sw + b
            j0, j1 = valid_columns(b - left, sw, w, pitch)
            for r in range(rows):
                i = r * sh + a - top
                if 0 <= i < h:
                    base = np.uint64(r * pitch + j0)
                    src = np.uint64(j0 * sw + b - left)
                    if sw == 1:     # a plain copy, which vectorises
                        for c in range(np.uint64(j1 - j0)):
                            out[f, base + c] = image[i, src + c]
                    else:
                        for c in range(np.uint64(j1 - j0)):
                            out[f, base + c] = image[i, src + c * step]


@inlined
def tap_offsets(kh, kw, sh, sw, pitch, dh=1, dw=1):
    """(phase, shift) of each tap (p, q), in row-major tap order: output
    (i, j) at i*pitch + j reads tap (p, q) (dilated: input offsets p*dh,
    q*dw) at i*pitch + j + shift."""
    where = np.empty((kh * kw, 2), np.int64)
    for k in range(kh * kw):
        p, q = divmod(k, kw)
        where[k, 0] = (p * dh % sh) * sw + q * dw % sw
        where[k, 1] = (p * dh // sh) * pitch + q * dw // sw
    return where


@inlined
def copy_out(wide, pitch, dst, b, c):
    """dst[b, c] (OH x OW) = the first OW columns of each row of ``wide``."""
    oh, ow = dst.shape[2], dst.shape[3]
    for i in range(oh):
        base = np.uint64(i * pitch)
        for j in range(np.uint64(ow)):
            dst[b, c, i, j] = wide[base + j]


@kernel
def pool(x, y, kh, kw, sh, sw, top, left, maximum, counts):
    """Max (``maximum``) or average pooling of every plane of x into y
    (NCHW). Max pads with -inf and propagates NaN; average divides the
    window sums by ``counts`` (real elements per output, laid out with the
    phases' pitch)."""
    n, c = x.shape[0], x.shape[1]
    oh, ow = y.shape[2], y.shape[3]
    pitch = ow + (kw - 1) // sw
    rows = oh + (kh - 1) // sh
    pad = x.dtype.type(-np.inf) if maximum else x.dtype.type(0)
    planes = np.full((sh * sw, rows * pitch + (kw - 1) // sw + 1), pad,
                     x.dtype)
    acc = np.empty(oh * pitch, x.dtype)
    where = tap_offsets(kh, kw, sh, sw, pitch)
    for k in range(n * c):
        b, ch = divmod(k, c)
        phases(x[b, ch], top, left, sh, sw, pitch, rows, planes)
        for t in range(kh * kw):
            f, shift = where[t, 0], np.uint64(where[t, 1])
            if t == 0:
                for u in range(np.uint64(acc.size)):
                    acc[u] = planes[f, shift + u]
            elif maximum:       # NaN-propagating, and it vectorises (a
                for u in range(np.uint64(acc.size)):    # select does not)
                    acc[u] = np.maximum(acc[u], planes[f, shift + u])
            else:
                for u in range(np.uint64(acc.size)):
                    acc[u] += planes[f, shift + u]
        if not maximum:
            for u in range(acc.size):
                acc[u] /= counts[u]
        copy_out(acc, pitch, y, b, ch)


def each_channel_range(images: int, channels: int, plane_pixels: int, fn):
    """fn(n, lo, hi) for every image n and ranges of its channels, the
    ranges split across the worker threads (so slices x[n:n+1, lo:hi]
    stay contiguous)."""
    for n in range(images):
        parallel_for(channels, lambda lo, hi, n=n: fn(n, lo, hi),
                     grain=min_items(plane_pixels))


def pool_nchw(x, kernel_size, strides, pad_mode, data_format, maximum):
    """MaxPool (``maximum``) or AvgPool of a float32/float64 NCHW x with
    :func:`pool`, channel ranges across the worker threads; None for what
    the kernel does not cover."""
    if data_format != "NCHW" or program.float_operands(x) is None \
            or x.ndim != 4 or pad_mode not in ("VALID", "SAME"):
        return None
    pads = win.resolve_pads(x.shape[2:], kernel_size, strides, (1, 1), pad_mode)
    out_hw = win.output_hw(x.shape[2:], kernel_size, strides, (1, 1), pads)
    y = np.empty(x.shape[:2] + tuple(out_hw), x.dtype)
    counts = np.empty(0, x.dtype) if maximum else _window_counts(
        x.shape[2:], tuple(kernel_size), tuple(strides), pads, tuple(out_hw),
        x.dtype)
    x = program.writable(x)

    def run(n, lo, hi):
        pool(x[n:n + 1, lo:hi], y[n:n + 1, lo:hi], *kernel_size, *strides,
             pads[0][0], pads[1][0], maximum, counts)
    each_channel_range(x.shape[0], x.shape[1], y.shape[2] * y.shape[3], run)
    return y


def max_pool(x, kernel_size=(1, 1), strides=(1, 1), pad_mode="VALID",
             data_format="NCHW"):
    """MaxPool of NCHW float32/float64 planes (:func:`pool_nchw`)."""
    return pool_nchw(x, kernel_size, strides, pad_mode, data_format, True)


def avg_pool(x, kernel_size=(1, 1), strides=(1, 1), pad_mode="VALID",
             data_format="NCHW"):
    """AvgPool of NCHW float32/float64 planes (:func:`pool_nchw`)."""
    return pool_nchw(x, kernel_size, strides, pad_mode, data_format, False)


@lru_cache(maxsize=256)
def _window_counts(hw, kernel_size, strides, pads, out_hw, dtype):
    """The number of real (unpadded) elements in each window, laid out with
    the pooling kernel's row pitch (the extra columns count 1)."""
    per_axis = []
    for axis in range(2):
        starts = np.arange(out_hw[axis]) * strides[axis] - pads[axis][0]
        ends = np.minimum(starts + kernel_size[axis], hw[axis])
        per_axis.append(ends - np.maximum(starts, 0))
    pitch, _, _ = layout(kernel_size, strides, out_hw)
    counts = np.ones((out_hw[0], pitch), dtype)
    counts[:, :out_hw[1]] = np.outer(per_axis[0], per_axis[1])
    return counts.reshape(-1)
