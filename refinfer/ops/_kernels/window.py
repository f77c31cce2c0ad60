"""Numba kernel for every max and average pool, windowed or adaptive
(``numba`` backend of the ops using ops/_ref/pool.py).

One description serves all of them. Along each spatial axis, output
position o reads the input at ``start[o] + t * step`` for t < ``count[o]``
(a row of a *tap table*); positions outside the input are padding:

- window pools: start = o * stride - pad_before, count = kernel,
  step = dilation;
- adaptive pools: the bin [start, end) of ops/_ref/pool.adaptive_bins, step 1.

The input is seen as (planes, D * H, W): N * C planes (or every leading
axis of an adaptive pool), 1-D and 2-D pools given unit leading spatial
axes, so one compiled :func:`pool_planes` per dtype (float32, float64)
serves every pool. For an output row (od, oh) it first reduces the input
rows of the windows column by column into a scratch row (a loop over W
that vectorises), then each output reduces its columns of the scratch row.

Max: a NaN wins, then the larger value, then the smaller flat index into
(D, H, W) (int32 in the kernel: planes hold fewer than 2**31 elements);
that order is total, so the reduction order does not matter and the
result is the reference's first maximum in row-major tap order. A
window whose first tap is padding starts from (the dtype's lowest, index
-1), as the reference's does, so padding stays when no value is greater.
Average: float64 sums divided by div_d[od] * div_h[oh] * div_w[ow] (the
divisor rules are the caller's, see :func:`avg_pool`).
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from refinfer.jit import kernel
from refinfer.threads import min_items, parallel_for

from . import program
from .._ref import pool as _pool
from .._ref import window as win

_UNIT_TAPS = np.array([[0, 1, 1]], np.int64)   # an axis of length 1 kept
_NO_INDEX = np.empty((0, 0, 0), np.int64)
_NO_DIVISOR = np.empty(0, np.float64)
MARGIN = np.iinfo(np.int32).max   # index of a padding cell: loses every tie


# -- kernels -------------------------------------------------------------------
# Indices are made unsigned where Numba cannot prove them non-negative (see
# _kernels/program.py), and choices are written as selects, so the loops vectorise.
@kernel
def beats(v, i, best, best_i):
    """Whether value v at flat index i beats (best, best_i) in a max pool:
    NaN first, then the larger value, then the smaller index."""
    return ((v != v) & ((best == best) | (i < best_i))) | (v > best) \
        | ((v == best) & (i < best_i))


@kernel
def window_rows(taps_d, taps_h, od, oh, depth, height, rows):
    """The flat rows id * height + ih that output row (od, oh) reads, in
    rows (row-major order); returns their number."""
    count = 0
    start_d, count_d, step_d = taps_d[od, 0], taps_d[od, 1], taps_d[od, 2]
    start_h, count_h, step_h = taps_h[oh, 0], taps_h[oh, 1], taps_h[oh, 2]
    for a in range(count_d):
        i = start_d + a * step_d
        if 0 <= i < depth:
            for b in range(count_h):
                k = start_h + b * step_h
                if 0 <= k < height:
                    rows[count] = i * height + k
                    count += 1
    return count


@kernel
def column_sums(x, p, rows, count, left, sums):
    """sums[left + j] = the float64 sum of x[p, r, j] over the listed rows."""
    width, base = np.uint64(x.shape[2]), np.uint64(left)
    for j in range(width):
        sums[base + j] = 0.0
    for k in range(count):
        r = np.uint64(rows[k])
        for j in range(width):
            sums[base + j] += x[p, r, j]


@kernel
def column_maxima(x, p, rows, count, left, best, where):
    """best[left + j], where[left + j]: the maximum of x[p, r, j] over the
    listed rows (count >= 1) and its flat index r * W + j. Rows come in
    order, so a later row wins only by a larger value or a first NaN."""
    width, base = np.uint64(x.shape[2]), np.uint64(left)
    r = np.uint64(rows[0])
    for j in range(width):
        best[base + j] = x[p, r, j]
        where[base + j] = np.int32(r * width + j)
    for k in range(1, count):
        r = np.uint64(rows[k])
        for j in range(width):
            v, b = x[p, r, j], best[base + j]
            take = (v > b) | ((v != v) & (b == b))
            best[base + j] = v if take else b
            where[base + j] = np.int32(r * width + j) if take else where[base + j]


@kernel
def segment_sums(sums, taps_w, left, regular, acc):
    """acc[ow] = the sum of the scratch row over the taps of output ow.
    ``regular`` > 0: every output has the taps of output 0 shifted by
    ``regular`` columns per output (a window pool), so the loop runs tap
    by tap over all outputs at once."""
    if regular:
        for ow in range(acc.size):
            acc[ow] = 0.0
        shift = np.uint64(regular)
        for t in range(taps_w[0, 1]):
            base = np.uint64(left + taps_w[0, 0] + t * taps_w[0, 2])
            for ow in range(np.uint64(acc.size)):
                acc[ow] += sums[base + ow * shift]
        return
    for ow in range(acc.size):
        total = 0.0
        for t in range(taps_w[ow, 1]):
            total += sums[left + taps_w[ow, 0] + t * taps_w[ow, 2]]
        acc[ow] = total


@kernel
def segment_maxima(best, where, taps_w, left, regular, padded_row, acc, acc_i):
    """acc[ow], acc_i[ow]: the maximum of the scratch row over the taps of
    output ow (``regular`` as in :func:`segment_sums`). The start is the
    first tap's column, or (lowest, -1) where the first tap is padding
    (``padded_row``: its depth or height is; else its column is a margin
    cell); padding cells never win after that."""
    lowest = best.dtype.type(-np.inf)
    first = 0 if padded_row else 1
    for ow in range(acc.size):
        j = left + taps_w[0 if regular else ow, 0] + ow * regular
        pad = padded_row | (where[j] == MARGIN)
        acc[ow] = lowest if pad else best[j]
        acc_i[ow] = -1 if pad else where[j]
    if regular:
        shift = np.uint64(regular)
        for t in range(first, taps_w[0, 1]):
            base = np.uint64(left + taps_w[0, 0] + t * taps_w[0, 2])
            for ow in range(np.uint64(acc.size)):
                v, i = best[base + ow * shift], where[base + ow * shift]
                take = beats(v, i, acc[ow], acc_i[ow])
                acc[ow] = v if take else acc[ow]
                acc_i[ow] = i if take else acc_i[ow]
        return
    for ow in range(acc.size):
        v, i = acc[ow], acc_i[ow]
        for t in range(first, taps_w[ow, 1]):
            j = left + taps_w[ow, 0] + t * taps_w[ow, 2]
            if beats(best[j], where[j], v, i):
                v, i = best[j], where[j]
        acc[ow], acc_i[ow] = v, i


@kernel
def row_layout(taps, width):
    """(left, span, shift) of the scratch row read through the W taps:
    ``left`` padding cells before the W columns, ``span`` cells in all,
    and ``shift`` > 0 when output o's taps are output 0's moved by o *
    shift (equal counts and steps, starts in steps of shift), else 0."""
    left, end = 0, width
    shift = taps[1, 0] - taps[0, 0] if taps.shape[0] > 1 else 1
    for o in range(taps.shape[0]):
        start, count, step = taps[o, 0], taps[o, 1], taps[o, 2]
        left = max(left, -start)
        end = max(end, start + (count - 1) * step + 1)
        if o and (start - taps[o - 1, 0] != shift or count != taps[0, 1]
                  or step != taps[0, 2]):
            shift = 0
    return left, left + end, max(shift, 0)


@kernel
def most_taps(taps):
    most = 0
    for o in range(taps.shape[0]):
        most = max(most, taps[o, 1])
    return most


@kernel
def pool_planes(x, y, index, height, taps_d, taps_h, taps_w, div_d, div_h,
                div_w, average, with_index):
    """Pool every plane of x (P, D*H, W) into y (P, OD*OH, OW) along the
    tap tables. ``index`` (like y, int64) gets the flat index of each
    maximum when ``with_index``. ``average``: the mean with the divisors
    div_d[od] * div_h[oh] * div_w[ow], else the maximum. The W taps read a
    scratch row whose padding cells come before and after the columns."""
    width = x.shape[2]
    depth, out_h, out_w = x.shape[1] // height, taps_h.shape[0], taps_w.shape[0]
    left, span, regular = row_layout(taps_w, width)
    rows = np.empty(most_taps(taps_d) * most_taps(taps_h), np.int64)
    sums = np.empty(span, np.float64)
    best = np.empty(span, x.dtype)
    where = np.empty(span, np.int32)     # int32 vectorises with float32
    for j in range(span):       # the padding cells; the columns are rewritten
        sums[j], best[j], where[j] = 0.0, -np.inf, MARGIN
    acc = np.empty(out_w, np.float64)
    acc_v = np.empty(out_w, x.dtype)
    acc_i = np.empty(out_w, np.int32)
    for p in range(x.shape[0]):
        for od in range(taps_d.shape[0]):
            for oh in range(out_h):
                q = od * out_h + oh
                count = window_rows(taps_d, taps_h, od, oh, depth, height, rows)
                if average:
                    column_sums(x, p, rows, count, left, sums)
                    segment_sums(sums, taps_w, left, regular, acc)
                    scale = div_d[od] * div_h[oh]
                    for ow in range(out_w):
                        y[p, q, ow] = acc[ow] / (scale * div_w[ow])
                    continue
                if count == 0:      # every window of the row is padding
                    for ow in range(out_w):
                        acc_v[ow], acc_i[ow] = -np.inf, -1
                else:
                    column_maxima(x, p, rows, count, left, best, where)
                    padded = (taps_d[od, 0] < 0) | (taps_d[od, 0] >= depth) \
                        | (taps_h[oh, 0] < 0) | (taps_h[oh, 0] >= height)
                    segment_maxima(best, where, taps_w, left, regular, padded,
                                   acc_v, acc_i)
                for ow in range(out_w):
                    y[p, q, ow] = acc_v[ow]
                if with_index:
                    for ow in range(out_w):
                        index[p, q, ow] = acc_i[ow]


# -- drivers -------------------------------------------------------------------
def _spatial3(shape: tuple, rank: int) -> tuple[int, int, int]:
    """The trailing ``rank`` (<= 3) axes of ``shape`` as (D, H, W)."""
    return (1,) * (3 - rank) + tuple(shape[len(shape) - rank:])


def _pad3(tables: list) -> list:
    """Tap tables for (D, H, W): unit axes before those of a 1-D / 2-D pool."""
    return [_UNIT_TAPS] * (3 - len(tables)) + list(tables)


@lru_cache(maxsize=512)
def window_taps(out: int, stride: int, before: int, kernel: int,
                dilation: int) -> np.ndarray:
    """The tap table of a window pool along one axis."""
    table = np.empty((out, 3), np.int64)
    table[:, 0] = np.arange(out) * stride - before
    table[:, 1], table[:, 2] = kernel, dilation
    return table


@lru_cache(maxsize=512)
def adaptive_taps(size: int, out: int) -> np.ndarray:
    """The tap table of an adaptive pool along one axis (bins of
    ops/_ref/pool.adaptive_bins)."""
    starts, ends = _pool.adaptive_bins(size, out)
    return np.stack([starts, ends - starts, np.ones(out, np.int64)], axis=1)


def run_pool(x, lead: int, rank: int, tables: list, divisors=None,
             argmax: bool = False):
    """Pool float32/float64 x (``lead`` leading axes, then ``rank``
    spatial ones) along the tap tables, one per spatial axis: the maximum
    (with its int64 flat index when ``argmax``), or with ``divisors`` (one
    float64 array per axis) the mean. Returns y or (y, index)."""
    spatial = _spatial3(x.shape, rank)
    planes = int(np.prod(x.shape[:lead], dtype=np.int64))
    out = tuple(len(t) for t in tables)
    x3 = program.writable(x).reshape(planes, spatial[0] * spatial[1], spatial[2])
    tables = _pad3(tables)
    out3 = tuple(len(t) for t in tables)
    y = np.empty((planes, out3[0] * out3[1], out3[2]), x.dtype)
    index = np.empty(y.shape, np.int64) if argmax else _NO_INDEX
    average = divisors is not None
    div = [np.ones(1)] * (3 - rank) + list(divisors) if average else [_NO_DIVISOR] * 3

    def run(lo, hi):
        pool_planes(x3[lo:hi], y[lo:hi], index[lo:hi] if argmax else index,
                    spatial[1], *tables, *div, average, argmax)
    parallel_for(planes, run, grain=min_items(x3.shape[1] * x3.shape[2]
                                              + y.shape[1] * y.shape[2]))
    shape = x.shape[:lead] + out
    return (y.reshape(shape), index.reshape(shape)) if argmax else y.reshape(shape)


def _applies(x, rank: int) -> bool:
    """Whether :func:`pool_planes` pools x over its trailing ``rank``
    axes: float32/float64, 1 to 3 non-empty axes, planes of fewer than
    2**31 elements (its indices are int32)."""
    if program.float_operands(x) is None or not 1 <= rank <= 3 or x.ndim < rank:
        return False
    spatial = x.shape[x.ndim - rank:]
    return 0 not in spatial and math.prod(spatial) < MARGIN


def max_pool(x, kernel, stride, dilation, pads, ceil_mode=False, argmax=False):
    """ops/_ref/pool.max_pool with :func:`pool_planes` (float32/float64;
    None for other inputs)."""
    if x.ndim != len(kernel) + 2 or not _applies(x, len(kernel)):
        return None
    out = win.output_hw(x.shape[2:], kernel, stride, dilation, pads, ceil_mode)
    tables = [window_taps(*geometry) for geometry in zip(
        out, stride, (p[0] for p in pads), kernel, dilation)]
    return run_pool(x, 2, len(kernel), tables, argmax=argmax)


def avg_pool(x, kernel, stride, pads, ceil_mode=False, count_include_pad=True,
             divisor_override=0):
    """ops/_ref/pool.avg_pool with :func:`pool_planes` (float32/float64;
    None for other inputs): the divisor is divisor_override, else the
    product of ops/_ref/pool's per-axis window counts."""
    if x.ndim != len(kernel) + 2 or not _applies(x, len(kernel)):
        return None
    spatial = x.shape[2:]
    ones = (1,) * len(spatial)
    out = win.output_hw(spatial, kernel, stride, ones, pads, ceil_mode)
    tables = [window_taps(o, s, p[0], k, 1) for o, s, p, k in zip(out, stride, pads, kernel)]
    if divisor_override:
        divisors = [np.ones(o) for o in out]
        divisors[0] = np.full(out[0], float(divisor_override))
    else:
        divisors = [_pool.window_counts(*g, count_include_pad).astype(np.float64)
                    for g in zip(spatial, kernel, stride, pads, out)]
    return run_pool(x, 2, len(kernel), tables, divisors)


def _adaptive_tables(x, out_size):
    """The tap tables of an adaptive pool, or None where the kernel does
    not apply (see :func:`_applies`; an empty output)."""
    if not _applies(x, len(out_size)):
        return None
    spatial = x.shape[x.ndim - len(out_size):]
    out = tuple(s if o in (None, -1) else int(o) for s, o in zip(spatial, out_size))
    if min(out) <= 0:
        return None
    return [adaptive_taps(s, o) for s, o in zip(spatial, out)]


def adaptive_avg_pool(x, out_size):
    """ops/_ref/pool.adaptive_avg_pool with :func:`pool_planes` (None
    where it does not apply)."""
    tables = _adaptive_tables(x, out_size)
    if tables is None:
        return None
    divisors = [t[:, 1].astype(np.float64) for t in tables]
    return run_pool(x, x.ndim - len(tables), len(tables), tables, divisors)


def adaptive_max_pool(x, out_size):
    """ops/_ref/pool.adaptive_max_pool with :func:`pool_planes` (None
    where it does not apply)."""
    tables = _adaptive_tables(x, out_size)
    if tables is None:
        return None
    return run_pool(x, x.ndim - len(tables), len(tables), tables, argmax=True)


# -- the ops' kernels: their references' argument handling with these pools ----------
def adaptive_avg_pool_nd(input, output_size):
    """AdaptiveAvgPool1D/2D/3D(Ext) (float32/float64)."""
    _pool.check_output_size("AdaptiveAvgPool", input, output_size)
    return adaptive_avg_pool(input, output_size)


def adaptive_max_pool_nd(input, output_size):
    """AdaptiveMaxPool1D/2D (float32/float64)."""
    _pool.check_output_size("AdaptiveMaxPool", input, output_size)
    return adaptive_max_pool(input, output_size)


def max_pool3d(x, kernel_size=(1, 1, 1), strides=(1, 1, 1), pad_mode="VALID",
               pad_list=(0, 0, 0, 0, 0, 0), ceil_mode=False,
               data_format="NCDHW"):
    """MaxPool3D (float32/float64)."""
    return _pool.max_pool3d_with(max_pool, x, kernel_size, strides, pad_mode,
                                 pad_list, ceil_mode, data_format)


def avg_pool3d(input, kernel_size=(1, 1, 1), strides=(1, 1, 1),
               pad_mode="VALID", pad=(0, 0, 0, 0, 0, 0), ceil_mode=False,
               count_include_pad=True, divisor_override=0,
               data_format="NCDHW", pad_list=None):
    """AvgPool3D (float32/float64)."""
    return _pool.avg_pool3d_with(avg_pool, input, kernel_size, strides,
                                 pad_mode, pad, ceil_mode, count_include_pad,
                                 divisor_override, data_format, pad_list)


def max_pool3d_with_argmax(x, ksize, strides, pads, dilation=(1, 1, 1),
                           ceil_mode=False, data_format="NCDHW",
                           argmax_type=np.dtype(np.int64)):
    """MaxPool3DWithArgmax (float32/float64)."""
    _pool.check_ncdhw(x, data_format)
    return _pool.pool_with_argmax(max_pool, x, ksize, strides, pads,
                                  dilation, ceil_mode, argmax_type)


def max_pool_with_argmax(x, kernel_size=(1, 1), strides=(1, 1),
                         pad_mode="VALID", data_format="NCHW"):
    """MaxPoolWithArgmax (float32/float64)."""
    return _pool.max_pool_with_argmax_with(max_pool, x, kernel_size, strides,
                                           pad_mode, data_format)


def max_pool_with_argmax_v2(x, kernel_size, strides=None, pads=(0, 0),
                            dilation=(1, 1), ceil_mode=False,
                            argmax_type=np.dtype(np.int64)):
    """MaxPoolWithArgmaxV2 (float32/float64)."""
    return _pool.pool_with_argmax(max_pool, x, kernel_size, strides, pads,
                                  dilation, ceil_mode, argmax_type)


def mint_avg_pool(rank: int):
    """The kernel of the rank-D mint average pool (AvgPool1D, AvgPool2D,
    AvgPool3DExt; AvgPool1D passes no divisor_override)."""
    def avg_pool_nd(input, kernel_size, stride=None, padding=(0,),
                    ceil_mode=False, count_include_pad=True,
                    divisor_override=None):
        return _pool.torch_avg_pool(avg_pool, rank, input, kernel_size, stride,
                                    padding, ceil_mode, count_include_pad,
                                    divisor_override)
    return avg_pool_nd


def max_pool_with_indices(x, kernel_size, strides=None, pads=(0, 0),
                          dilation=(1, 1), ceil_mode=False,
                          argmax_type=np.dtype(np.int64)):
    """MaxPoolWithIndices / MaxPoolWithMask."""
    return _pool.max_pool_with_indices_with(max_pool, x, kernel_size, strides,
                                            pads, dilation, ceil_mode,
                                            argmax_type)
