"""Numba helpers for kernels that slide windows over image planes (the fast
convolutions and pools).

The convolutions' trick: a zero-padded plane (for stride s, its s x s
phases: phase (a, b) holds the rows a, a+s, ... and the columns b, b+s, ...)
is laid out flat with a row pitch of OW + (kw-1)//s, so that the input of
window tap (p, q) for output (i, j) sits at (i*pitch + j) + a constant shift
in one phase. A whole plane is then one long vectorised loop per tap over
i*pitch + j, computing pitch - OW garbage columns per row that are dropped
when the result is copied out. The pools, whose windows are separable, go
down the rows first and then across (:func:`pool`), with no phases to make.

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


#: Elements in a band of window rows: the band and its windows' results
#: across stay in L1 between the two passes of :func:`pool`.
BAND_ITEMS = 2048


@inlined
def merge(dst, d0, src, s0, count, first, maximum):
    """dst[d0 + j] = src[s0 + j] (``first``), else the max (``maximum``)
    or the sum of the two, for j < count."""
    if first:
        for j in range(count):
            dst[d0 + j] = src[s0 + j]
    elif maximum:       # NaN-propagating, and it vectorises (a select does
        for j in range(count):                                     # not)
            dst[d0 + j] = np.maximum(dst[d0 + j], src[s0 + j])
    else:
        for j in range(count):
            dst[d0 + j] += src[s0 + j]


@inlined
def band_down(flat, k, h, w, band, i0, i1, kh, sh, top, left, pitch, pad,
              maximum):
    """band[(i - i0)*pitch + left + j] = the max (sum) of plane k of the
    flat NCHW input over the window rows of output row i (i0 <= i < i1)
    inside the image, at column j; ``pad`` where none is inside."""
    cols = np.uint64(max(0, min(w, pitch - left)))
    for i in range(i0, i1):
        d0 = np.uint64((i - i0) * pitch + left)
        first = True
        for p in range(kh):
            r = i * sh + p - top
            if 0 <= r < h:
                merge(band, d0, flat, np.uint64((k * h + r) * w), cols,
                      first, maximum)
                first = False
        if first:
            fill(band, d0, d0 + cols, pad)


@inlined
def band_out(across, out, counts, k, i0, i1, pitch, oh, ow, sw, maximum):
    """Output rows i0 <= i < i1 of flat plane k: every sw-th column of
    their windows' results ``across``, divided by ``counts`` (average)."""
    step = np.uint64(sw)
    for i in range(i0, i1):
        s0 = np.uint64((i - i0) * pitch)
        d0, c0 = np.uint64((k * oh + i) * ow), np.uint64(i * ow)
        for j in range(np.uint64(ow)):
            out[d0 + j] = across[s0 + j * step]
        if not maximum:
            for j in range(np.uint64(ow)):
                out[d0 + j] /= counts[c0 + j]


@kernel
def pool(x, y, kh, kw, sh, sw, top, left, maximum, counts):
    """Max (``maximum``) or average pooling of every plane of x into y
    (NCHW, contiguous), separably, a band of output rows at a time: down
    the kh window rows for every padded column, then across kw columns in
    one pass over the band (rows one pitch apart, the last kw-1 columns of
    a row mixing with the next, never output), every sw-th column kept.
    Max pads with -inf and propagates NaN; average divides the window sums
    by ``counts`` (real elements per output, OH x OW)."""
    h, w = x.shape[2], x.shape[3]
    oh, ow = y.shape[2], y.shape[3]
    pad = x.dtype.type(-np.inf) if maximum else x.dtype.type(0)
    pitch = (ow - 1) * sw + kw          # the padded columns windows read
    rows = max(1, min(oh, BAND_ITEMS // pitch))
    band = np.full(rows * pitch, pad, x.dtype)
    across = np.empty(rows * pitch, x.dtype)
    flat, out = x.reshape(-1), y.reshape(-1)
    for k in range(x.shape[0] * x.shape[1]):
        for i0 in range(0, oh, rows):
            i1 = min(i0 + rows, oh)
            band_down(flat, k, h, w, band, i0, i1, kh, sh, top, left, pitch,
                      pad, maximum)
            size = np.uint64((i1 - i0) * pitch - kw + 1)
            for q in range(kw):
                merge(across, np.uint64(0), band, np.uint64(q), size, q == 0,
                      maximum)
            band_out(across, out, counts, k, i0, i1, pitch, oh, ow, sw,
                     maximum)


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
    """The number of real (unpadded) elements in each window, flat."""
    per_axis = []
    for axis in range(2):
        starts = np.arange(out_hw[axis]) * strides[axis] - pads[axis][0]
        ends = np.minimum(starts + kernel_size[axis], hw[axis])
        per_axis.append(ends - np.maximum(starts, 0))
    return np.outer(per_axis[0], per_axis[1]).astype(dtype).reshape(-1)
