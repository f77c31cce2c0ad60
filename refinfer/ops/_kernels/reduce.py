"""Numba runners for the reductions, arg-searches, scans and selections
(ReduceSum, ReduceProd, Nansum, LogSumExp, Std, LogSoftmaxExt, Argmax and
its kin, CumSum, Cummax, Median, TopK, Sort, SearchSorted), and the ops'
kernels built on them (the end of the module: each has its op's signature
and returns None where it declines, for the registry to run the reference).

One compiled runner per family takes the op as an integer code, so one
signature per dtype serves every op of the family:

- :func:`product_tasks`: products over any axes;
- :func:`float_tasks`: NANSUM, LOGSUMEXP, STD (with the mean) and
  LOG_SOFTMAX, floats only (so the integer signatures stay small);
- :func:`search_tasks`: the index and value of the max / min (MindSpore's
  scan rules);
- :func:`scan_tasks`: CUMSUM, CUMPROD (exclusive, reverse), CUMMAX, CUMMIN;
- :func:`median_rows`, :func:`top_rows`, :func:`sort_rows` and
  :func:`search_sorted_tasks` along the last axis;
- :func:`reduce_rows`: SUM, MEAN, MAX over trailing axes, row by row
  (ReduceSum, ReduceMean, ReduceMax, SumExt, MeanExt);
- ``fast_exp`` (_kernels/libm.py), an exp that vectorises (Numba's calls libm).

Layout. A reduction or scan sees x as a C-contiguous (outer, size, inner)
array, ``size`` the product of the reduced axes: a plain reshape when those
axes are adjacent (size-1 axes aside), else one transposing copy that puts
them last. Work is cut into tasks: with inner == 1 a task is one row, read
in LANES interleaved accumulators (element j of the row goes to lane
j % LANES) so that the loop vectorises, the lanes combined at the end; with
inner > 1 a task is a block of up to BLOCK adjacent columns of one outer
index, reduced down the middle axis with one accumulator per column, so no
transposing copy is needed. Tasks are split across the worker threads by
refinfer.threads.parallel_for.

Numerics follow the references: the same formulas (two passes for the
variance, max-shifted exponentials for LogSumExp), float sums in float64,
products, extremes and scans in the input dtype (integers wrap as in
NumPy). NaN and tie rules are in the kernels' docstrings. Dtypes: float32
and float64; int32 and int64 too for the products, arg-searches, scans,
sorts and SearchSorted. Everything else (float16, bool, other integers,
empty and 0-d tensors) is declined, for the reference: every
signature costs compile time once (cached on disk), so the set is kept to
what models use.
"""
from __future__ import annotations

import math

import numpy as np

from refinfer import args
from refinfer.jit import kernel
from refinfer.threads import min_items, parallel_for

from .program import writable
from .libm import fast_exp, sum64
from .._ref.reduce import as_sum_dtype, reduce_axes
from .._ref.search import one_axis

KERNEL_DTYPES = tuple(np.dtype(t) for t in (np.float32, np.float64, np.int32, np.int64))
LANES = 128     # interleaved accumulators of a row reduction
BLOCK = 1024    # columns of a middle-axis task
NARROW = 4      # a middle axis with fewer columns than this is transposed


def kernel_view(x: np.ndarray) -> np.ndarray | None:
    """x as a C-contiguous array of a kernel dtype, or None when the
    kernels do not take it (dtype, 0-d, empty)."""
    if type(x) is not np.ndarray or x.ndim == 0 or x.size == 0 or x.dtype not in KERNEL_DTYPES:
        return None
    return writable(x)


# -- layout --------------------------------------------------------------------------------------
def slabs(x: np.ndarray, axes) -> tuple[np.ndarray, int, int, int]:
    """(flat C-contiguous data, outer, size, inner): x seen as (outer, size,
    inner) with the axes ``axes`` in the middle, copied only when they are
    not adjacent or the inner part is narrower than NARROW."""
    live = [a for a in range(x.ndim) if x.shape[a] != 1]
    where = [k for k, a in enumerate(live) if a in axes]
    if not where:
        return x.reshape(-1), x.size, 1, 1
    size = math.prod(x.shape[live[k]] for k in where)
    inner = math.prod(x.shape[a] for a in live[where[-1] + 1:])
    if where == list(range(where[0], where[-1] + 1)) and not 1 < inner < NARROW:
        return x.reshape(-1), x.size // (size * inner), size, inner
    kept = [a for a in live if a not in axes]
    moved = np.ascontiguousarray(x.transpose(kept + [live[k] for k in where]))
    return moved.reshape(-1), x.size // size, size, 1


def around(shape: tuple, axis: int) -> tuple[int, int, int]:
    """(outer, size, inner) of ``shape`` around one axis."""
    return math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1:])


def reduced_shape(shape: tuple, axes, keepdims: bool) -> tuple:
    if keepdims:
        return tuple(1 if a in axes else d for a, d in enumerate(shape))
    return tuple(d for a, d in enumerate(shape) if a not in axes)


def task_count(outer: int, inner: int) -> int:
    """Tasks of an (outer, size, inner) layout: rows, or column blocks."""
    return outer if inner == 1 else outer * -(-inner // BLOCK)


def run_tasks(runner, outer: int, size: int, inner: int) -> None:
    """runner(first, last) over the tasks, split across the worker threads
    (a task holds size * min(inner, BLOCK) elements)."""
    parallel_for(task_count(outer, inner), runner,
                 grain=min_items(size * min(inner, BLOCK)))


@kernel
def task_slab(t, size, inner):
    """Task t's (base, stride, rows, width, tail, out_base) over the flat
    data: rows of ``width`` elements at base + r * stride (r < rows), then a
    partial row of ``tail`` elements; its results go to out_base onwards."""
    if inner == 1:
        width = min(size, LANES)
        rows = size // width
        return t * size, width, rows, width, size - rows * width, t
    blocks = (inner + BLOCK - 1) // BLOCK
    o, b = divmod(t, blocks)
    c0 = b * BLOCK
    return o * size * inner + c0, inner, size, min(BLOCK, inner - c0), 0, o * inner + c0


# -- NaN-aware order (NaN above everything, as NumPy sorts) ---------------------------------------
@kernel
def before(a, b):
    """a sorts strictly before b (NaN is the largest value). Bitwise
    operators, not and / or: no branches."""
    return (a < b) | ((b != b) & (a == a))


@kernel
def same(a, b):
    """a and b sort as equal (NaN equals NaN)."""
    return (a == b) | ((a != a) & (b != b))


# -- reductions ----------------------------------------------------------------------------------
(PROD, NANSUM, LOGSUMEXP, STD, LOG_SOFTMAX) = range(5)
# The passes the float ops are made of (float64 sums into ``wide``).
MAX, SUM, SUM_EXP, SQUARED_DEVIATION = range(5, 9)
FLOAT_OPS = (NANSUM, LOGSUMEXP, STD, LOG_SOFTMAX)


@kernel
def product_tasks(x, size, inner, out, first, last):
    """The product along the middle axis of the tasks first <= t < last of
    x (flat, seen as (outer, size, inner)) into out (outer * inner), in x's
    dtype (integers wrap, as NumPy's)."""
    lanes = inner == 1
    acc = np.empty(min(size, LANES) if lanes else min(inner, BLOCK), x.dtype)
    for t in range(first, last):
        base, stride, rows, width, tail, at = task_slab(t, size, inner)
        acc[:width] = 1
        for r in range(rows + (1 if tail else 0)):
            b = np.uint64(base + r * stride)
            for j in range(np.uint64(width if r < rows else tail)):
                acc[j] *= x[b + j]
        if lanes:
            for j in range(1, width):
                acc[0] *= acc[j]
        out[at:at + (1 if lanes else width)] = acc[:1 if lanes else width]


@kernel
def larger(a, v):
    """The max step with NaN propagating."""
    return v if (v > a) | (v != v) else a


@kernel
def fold_float(op, x, slab, acc, wide, center):
    """Fold the slab's rows (see task_slab) into lanes: MAX into acc[j], the
    sums into wide[j] (float64). ``center`` (x's dtype) holds each lane's
    mean for SQUARED_DEVIATION and is scratch for SUM_EXP (acc holds the
    max): the exponentials get a loop of their own, which vectorises
    better than one that also widens them. The max adds 0.0 to each new
    value (see fold_extreme)."""
    base, stride, rows, width, tail, _ = slab
    zero = x.dtype.type(0)
    for r in range(rows + (1 if tail else 0)):
        b = np.uint64(base + r * stride)
        count = np.uint64(width if r < rows else tail)
        if op == MAX:
            for j in range(count):
                acc[j] = larger(acc[j], x[b + j]) + zero
        elif op == NANSUM:
            for j in range(count):
                v = x[b + j]
                wide[j] += v if v == v else 0.0
        elif op == SUM:
            for j in range(count):
                wide[j] += x[b + j]
        elif op == SUM_EXP:
            for j in range(count):
                center[j] = fast_exp(x[b + j] - acc[j])
            for j in range(count):
                wide[j] += center[j]
        else:
            for j in range(count):
                d = x[b + j] - center[j]
                wide[j] += d * d


@kernel
def float_pass(op, x, slab, lanes, acc, wide, center):
    """One pass of ``op`` over a slab: start the lanes (the first row for
    MAX, else 0), fold the rows, then (``lanes``) combine the lanes into
    one value, stored in every lane."""
    width = slab[3]
    if op == MAX:
        for j in range(width):
            acc[j] = x[slab[0] + j]
    else:
        wide[:width] = 0.0
    fold_float(op, x, slab, acc, wide, center)
    if lanes and op == MAX:
        top = acc[0]
        for j in range(1, width):
            top = larger(top, acc[j])
        acc[:width] = top
    elif lanes:
        wide[:width] = wide[:width].sum()


@kernel
def float_slab(op, x, slab, lanes, count, acc, wide, center, y):
    """The passes of NANSUM, LOGSUMEXP, LOG_SOFTMAX or STD over a slab:
    LOGSUMEXP and LOG_SOFTMAX take the max m, then sum(exp(x - m))
    (LOGSUMEXP with m = 0 where it is not finite, as the reference);
    LOG_SOFTMAX then writes y = (x - m) - log(sum); STD sums, then sums
    the squared deviations from the mean. Each pass folds the rows, then
    (``lanes``) combines the lanes."""
    width = slab[3]
    for p in range(1 if op == NANSUM else 2):
        if op == NANSUM:
            step = NANSUM
        elif op == STD:
            step = SUM if p == 0 else SQUARED_DEVIATION
        else:
            step = MAX if p == 0 else SUM_EXP
        float_pass(step, x, slab, lanes, acc, wide, center)
        for j in range(width if p == 0 else 0):
            if op == STD:
                center[j] = wide[j] / count     # the mean, in x's dtype as np.std
            elif op == LOGSUMEXP and not np.isfinite(acc[j]):
                acc[j] = 0
    if op == LOG_SOFTMAX:
        write_log_softmax(x, slab, acc, wide, y)


@kernel
def write_log_softmax(x, slab, top, total, y):
    """y = (x - top) - log(total) over the slab, in x's dtype (lane j's
    top and total)."""
    base, stride, rows, width, tail, _ = slab
    shift = np.empty(width, y.dtype)
    for j in range(width):
        shift[j] = np.log(y.dtype.type(total[j]))
    for r in range(rows + (1 if tail else 0)):
        b = np.uint64(base + r * stride)
        for j in range(np.uint64(width if r < rows else tail)):
            y[b + j] = (x[b + j] - top[j]) - shift[j]


@kernel
def float_tasks(x, size, inner, op, ddof, out, out2, y, first, last):
    """NANSUM, LOGSUMEXP, STD or LOG_SOFTMAX (see float_slab) of the tasks
    first <= t < last of float x (flat, seen as (outer, size, inner)) into
    out (outer * inner, x's dtype); STD also writes the mean to out2,
    LOG_SOFTMAX writes y (x's shape) instead. ``ddof``: STD's divisor is
    max(size - ddof, 0), as np.std's."""
    lanes = inner == 1
    room = min(size, LANES) if lanes else min(inner, BLOCK)
    acc = np.empty(room, x.dtype)
    wide, center = np.empty(room), np.empty(room, x.dtype)
    for t in range(first, last):
        slab = task_slab(t, size, inner)
        float_slab(op, x, slab, lanes, size, acc, wide, center, y)
        at = slab[5]
        for j in range(1 if lanes else slab[3]):
            if op == NANSUM:
                out[at + j] = wide[j]
            elif op == LOGSUMEXP:
                out[at + j] = np.log(wide[j]) + acc[j]
            elif op == STD:
                out[at + j] = np.sqrt(wide[j] / max(size - ddof, 0.0))
                out2[at + j] = center[j]


def reduce(op: int, x: np.ndarray, axis, keepdims: bool, ddof: float = 0.0):
    """Reduction ``op`` of x over ``axis`` (None or () means every axis) in
    x's dtype; STD gives (std, mean). None when the kernel does not take x
    (see kernel_view; integers for the float-only ops: the sums,
    LOGSUMEXP, STD): the caller runs the reference."""
    data = kernel_view(x)
    if data is None or (op in FLOAT_OPS and data.dtype.kind != "f"):
        return None
    axes = reduce_axes(axis, x.ndim)
    flat, outer, size, inner = slabs(data, axes)
    out = np.empty(outer * inner, data.dtype)
    out2 = np.empty(out.size if op == STD else 0, data.dtype)
    if op == PROD:
        run_tasks(lambda lo, hi: product_tasks(flat, size, inner, out, lo, hi),
                  outer, size, inner)
    else:
        run_tasks(lambda lo, hi: float_tasks(flat, size, inner, op, float(ddof), out, out2,
                                             out[:0], lo, hi), outer, size, inner)
    shape = reduced_shape(x.shape, axes, keepdims)
    return (out.reshape(shape), out2.reshape(shape)) if op == STD else out.reshape(shape)


def log_softmax(x: np.ndarray, axis: int):
    """(x - max) - log(sum(exp(x - max))) along one axis of a float tensor
    (None for other tensors), without moving the axis."""
    data = kernel_view(x)
    if data is None or data.dtype.kind != "f":
        return None
    outer, size, inner = around(x.shape, one_axis(axis, x.ndim))
    flat, y = data.reshape(-1), np.empty(x.shape, x.dtype)
    target, nothing = y.reshape(-1), y.reshape(-1)[:0]
    run_tasks(lambda lo, hi: float_tasks(flat, size, inner, LOG_SOFTMAX, 0.0, nothing,
                                         nothing, target, lo, hi), outer, size, inner)
    return y


# -- arg-search -----------------------------------------------------------------------------------
@kernel
def fold_extreme(largest, x, slab, best, zero):
    """Lane j's largest (smallest) value of the slab's rows (see
    task_slab), NaN skipped (it never wins a comparison). ``zero`` (0 in
    x's dtype, made at run time) is added to each new value: LLVM turns a
    store of "new value or the old one" into a masked store, slow on AMD
    CPUs, unless the stored value is computed (and it drops a known
    integer + 0)."""
    base, stride, rows, width, tail, _ = slab
    for r in range(rows + (1 if tail else 0)):
        b = np.uint64(base + r * stride)
        for j in range(np.uint64(width if r < rows else tail)):
            v, a = x[b + j], best[j]
            best[j] = (v if (v > a if largest else v < a) else a) + zero


@kernel
def first_in_columns(x, slab, best, marks):
    """marks[size & 1, j] = the first row of column j equal to best[j] (0
    if none), for the columns of a middle-axis slab; rows are walked
    backwards, each writing the other row of marks (so the store is not a
    masked one, see fold_extreme). marks has an integer type as wide as x's
    (equally wide lanes keep the select vectorised)."""
    base, stride, size, width, _, _ = slab
    marks[0, :width] = 0
    for k in range(size):
        r = size - 1 - k
        b = np.uint64(base + r * stride)
        src, dst = k & 1, (k & 1) ^ 1
        mark = marks.dtype.type(r)
        for j in range(np.uint64(width)):
            marks[dst, j] = mark if x[b + j] == best[j] else marks[src, j]


@kernel
def search_tasks(x, size, inner, largest, nought, values, index, marks, first, last):
    """The max (``largest``) or min of the tasks first <= t < last of x
    (flat, seen as (outer, size, inner)) along the middle axis, and its
    position, as MindSpore's CPU scan finds them: the first of equal
    values; NaN never wins a comparison, so it is the answer only when it
    comes first ([nan, 1, 3] -> 0, [1, nan, 3] -> 2 for the max). Two
    passes: the extreme value (NaN skipped, every lane starting from the
    first element), then its first position. ``nought``: 0 (see
    fold_extreme); marks: scratch for first_in_columns."""
    lanes = inner == 1
    best = np.empty(min(size, LANES) if lanes else min(inner, BLOCK), x.dtype)
    for t in range(first, last):
        slab = task_slab(t, size, inner)
        base, stride, _, width, _, at = slab
        for j in range(width):
            best[j] = x[base + (0 if lanes else j)]
        fold_extreme(largest, x, slab, best, x.dtype.type(nought))
        if lanes:
            top = best[0]
            for j in range(1, width):
                top = best[j] if (best[j] > top if largest else best[j] < top) else top
            i = 0
            while top == top and x[base + i] != top:    # NaN first: position 0
                i += 1
            values[at], index[at] = x[base + i], i
        else:
            first_in_columns(x, slab, best, marks)
            for j in range(width):
                i = marks[size & 1, j]
                values[at + j], index[at + j] = x[base + i * stride + j], i


def arg_search(x: np.ndarray, axis, keepdims: bool, largest: bool):
    """(values, int64 indices) of the max or min along one axis (as
    _ref.search.extreme), or None when the kernel does not take x."""
    data = kernel_view(x)
    if data is None:
        return None
    axes = (one_axis(axis, x.ndim),)
    flat, outer, size, inner = slabs(data, axes)
    values, index = np.empty(outer * inner, x.dtype), np.empty(outer * inner, np.int64)
    marks = np.int32 if x.itemsize == 4 and size < 2**31 else np.int64

    def tasks(lo, hi):
        search_tasks(flat, size, inner, largest, 0, values, index,
                     np.empty((2, min(inner, BLOCK)), marks), lo, hi)
    run_tasks(tasks, outer, size, inner)
    shape = reduced_shape(x.shape, axes, keepdims)
    return values.reshape(shape), index.reshape(shape)


def flat_or_axis_index(x: np.ndarray, dim, keepdim: bool, largest: bool):
    """int64 index of the max / min along ``dim``, or into the flattened
    input when dim is None (as _ref.search.flat_or_axis_index); None when the
    kernel does not take x."""
    if dim is not None:
        found = arg_search(x, dim, keepdim, largest)
        return None if found is None else found[1]
    found = arg_search(x.reshape(-1), 0, False, largest) if x.ndim else None
    if found is None:
        return None
    return found[1].reshape((1,) * x.ndim) if keepdim else found[1]


# -- scans ----------------------------------------------------------------------------------------
CUMSUM, CUMPROD, CUMMAX, CUMMIN = range(4)


@kernel
def scan_step(op, exclusive, acc, where, v, r, zero, nought):
    """One step of a scan at position r: (running value, its position, the
    output). CUMSUM / CUMPROD run in x's dtype (integers wrap), the output
    leaving v out when ``exclusive``. CUMMAX / CUMMIN move the position to
    the latest equal value on ties; a NaN is taken and then kept. ``zero``
    and ``nought``: 0 (see fold_extreme)."""
    if op == CUMSUM or op == CUMPROD:
        new = acc + v if op == CUMSUM else acc * v
        return new, where, acc if exclusive else new
    take = (acc == acc) & ((v != v) | (v >= acc if op == CUMMAX else v <= acc))
    new = (v if take else acc) + zero
    return new, (r if take else where) + nought, new


@kernel
def scan_row(op, x, base, size, exclusive, reverse, nought, y, index):
    """Scan ``op`` (see scan_step) along a row of ``size`` elements at base,
    from the end when ``reverse``: the running value stays in a register
    (NumPy's cumsum speed, and more for floats)."""
    zero = x.dtype.type(nought)
    acc = x.dtype.type(0 if op == CUMSUM else 1) if op <= CUMPROD else x[base]
    where, start, last = 0, np.uint64(base), np.uint64(size - 1)
    for k in range(np.uint64(size)):
        i = last - k if reverse else k
        acc, where, y[start + i] = scan_step(op, exclusive, acc, where, x[start + i],
                                             np.int64(i), zero, nought)
        if op >= CUMMAX:
            index[start + i] = where


@kernel
def scan_columns(op, x, slab, exclusive, reverse, nought, acc, where, y, index):
    """Scan ``op`` (see scan_step) down the columns of a middle-axis slab
    (see task_slab), one lane per column, so the loop vectorises."""
    base, stride, size, width, _, _ = slab
    zero = x.dtype.type(nought)
    if op <= CUMPROD:
        acc[:width] = 0 if op == CUMSUM else 1
    else:
        acc[:width] = x[base:base + width]
        where[:width] = 0
    for k in range(size):
        r = size - 1 - k if reverse else k
        b = np.uint64(base + r * stride)
        if op <= CUMPROD:
            for j in range(np.uint64(width)):
                acc[j], _, y[b + j] = scan_step(op, exclusive, acc[j], 0, x[b + j], r, zero,
                                                nought)
        else:
            for j in range(np.uint64(width)):
                acc[j], where[j], y[b + j] = scan_step(op, exclusive, acc[j], where[j], x[b + j],
                                                       r, zero, nought)
                index[b + j] = where[j]


@kernel
def scan_tasks(x, size, inner, op, exclusive, reverse, nought, y, index, first, last):
    """Scan ``op`` (see scan_step) of the tasks first <= t < last of x (flat,
    seen as (outer, size, inner)) along the middle axis into y (and the
    positions into index for CUMMAX / CUMMIN): rows, or column blocks (see
    task_slab)."""
    room = 1 if inner == 1 else min(inner, BLOCK)
    acc, where = np.empty(room, x.dtype), np.empty(room, np.int64)
    for t in range(first, last):
        if inner == 1:
            scan_row(op, x, t * size, size, exclusive, reverse, nought, y, index)
        else:
            scan_columns(op, x, task_slab(t, size, inner), exclusive, reverse, nought, acc,
                         where, y, index)


def scan(op: int, x: np.ndarray, axis, exclusive: bool = False, reverse: bool = False):
    """Scan ``op`` along one axis in x's dtype: CUMSUM / CUMPROD give y,
    CUMMAX / CUMMIN (y, int64 positions); None when the kernel does not
    take x (see kernel_view)."""
    data = kernel_view(x)
    if data is None:
        return None
    outer, size, inner = around(x.shape, one_axis(axis, x.ndim))
    flat, y = data.reshape(-1), np.empty(x.shape, x.dtype)
    index = np.empty(x.shape if op in (CUMMAX, CUMMIN) else 0, np.int64)
    target, positions = y.reshape(-1), index.reshape(-1)
    run_tasks(lambda lo, hi: scan_tasks(flat, size, inner, op, exclusive, reverse, 0,
                                        target, positions, lo, hi), outer, size, inner)
    return (y, index) if op in (CUMMAX, CUMMIN) else y


# -- selection and sorting along the last axis ------------------------------------------------
def last_axis_rows(data: np.ndarray, axis: int) -> np.ndarray:
    """data (a kernel view) as C-contiguous rows along ``axis``."""
    moved = np.moveaxis(data, axis, -1)
    return np.ascontiguousarray(moved).reshape(-1, data.shape[axis])


def restore_axis(rows: np.ndarray, moved_shape: tuple, axis: int) -> np.ndarray:
    """Rows (..., m) of a moved-axis layout back in place along ``axis``."""
    return np.ascontiguousarray(np.moveaxis(rows.reshape(moved_shape), -1, axis))


def moved_shape(shape: tuple, axis: int, last: int) -> tuple:
    """``shape`` with ``axis`` moved last and given length ``last``."""
    return tuple(d for a, d in enumerate(shape) if a != axis) + (last,)


@kernel
def partition(a, lo, hi):
    """Partition a[lo:hi + 1] around a median-of-three pivot (NaN-aware
    order); returns the pivot's final position. The swaps keep sorted,
    reversed and constant runs O(n log n), as NumPy's and Numba's own."""
    mid = (lo + hi) >> 1
    if before(a[mid], a[lo]):
        a[lo], a[mid] = a[mid], a[lo]
    if before(a[hi], a[mid]):
        a[hi], a[mid] = a[mid], a[hi]
    if before(a[mid], a[lo]):
        a[lo], a[mid] = a[mid], a[lo]
    pivot = a[mid]
    a[hi], a[mid] = a[mid], a[hi]
    i, j = lo, hi - 1
    while True:
        while i < hi and before(a[i], pivot):
            i += 1
        while j >= lo and before(pivot, a[j]):
            j -= 1
        if i >= j:
            break
        a[i], a[j] = a[j], a[i]
        i += 1
        j -= 1
    a[i], a[hi] = a[hi], a[i]
    return i


@kernel
def select(a, k):
    """The k-th smallest value of a (NaN last), reordering a in place."""
    lo, hi = 0, a.size - 1
    while True:
        i = partition(a, lo, hi)
        if i == k:
            return a[k]
        if i < k:
            lo = i + 1
        else:
            hi = i - 1


@kernel
def median_rows(x, values, index, first, last):
    """Lower median of rows first <= r < last of x (rows, n): the
    (n - 1) // 2-th value in stable sorted order (NaN last), and its
    position: the occurrence of that value which the stable order puts
    there."""
    n = x.shape[1]
    k = (n - 1) // 2
    work = np.empty(n, x.dtype)
    for r in range(first, last):
        work[:] = x[r]
        v = select(work, k)
        skip = k        # equal values to pass: k minus those sorting before v
        for j in range(n):
            if before(x[r, j], v):
                skip -= 1
        for j in range(n):
            if same(x[r, j], v):
                if skip == 0:
                    index[r] = j
                    break
                skip -= 1
        values[r] = v


def lower_median(x: np.ndarray, axis, keepdims: bool = False):
    """(lower median, int64 index) along one axis of a float tensor (as
    _ref.search.lower_median), or None when the kernel does not take x."""
    data = kernel_view(x)
    if data is None or x.dtype.kind != "f":
        return None
    axis = one_axis(axis, x.ndim)
    rows = last_axis_rows(data, axis)
    values, index = np.empty(rows.shape[0], x.dtype), np.empty(rows.shape[0], np.int64)
    parallel_for(rows.shape[0], lambda lo, hi: median_rows(rows, values, index, lo, hi),
                 grain=min_items(4 * rows.shape[1]))
    shape = reduced_shape(x.shape, (axis,), keepdims)
    return values.reshape(shape), index.reshape(shape)


@kernel
def worse(largest, a, i, b, j):
    """Value a at position i ranks below b at j in the largest-first (or
    smallest-first) order, NaN the largest value, ties by position."""
    if before(a, b):
        return largest
    if before(b, a):
        return not largest
    return i > j


@kernel
def sift_down(largest, heap, at, size, p):
    """Restore the heap (heap values, ``at`` their positions) below p: a
    parent ranks below its children, so the root is the worst kept."""
    while True:
        c = 2 * p + 1
        if c >= size:
            return
        if c + 1 < size and worse(largest, heap[c + 1], at[c + 1], heap[c], at[c]):
            c += 1
        if not worse(largest, heap[c], at[c], heap[p], at[p]):
            return
        heap[p], heap[c] = heap[c], heap[p]
        at[p], at[c] = at[c], at[p]
        p = c


@kernel
def top_rows(x, k, largest, values, index, first, last):
    """The k largest (or smallest) values of rows first <= r < last of x
    (rows, n), best first, with their positions: a heap of the k best seen,
    whose root (the worst kept) a new value must beat. Order as the stable
    sort: NaN is the largest value, equal values by position."""
    n = x.shape[1]
    heap, at = np.empty(k, x.dtype), np.empty(k, np.int64)
    for r in range(first, last):
        for j in range(k):
            heap[j], at[j] = x[r, j], j
        for p in range(k // 2 - 1, -1, -1):
            sift_down(largest, heap, at, k, p)
        for j in range(k, n):
            v = x[r, j]
            if worse(largest, heap[0], at[0], v, j):
                heap[0], at[0] = v, j
                sift_down(largest, heap, at, k, 0)
        for size in range(k, 0, -1):    # the worst kept goes last
            values[r, size - 1], index[r, size - 1] = heap[0], at[0]
            heap[0], at[0] = heap[size - 1], at[size - 1]
            sift_down(largest, heap, at, size - 1, 0)


# Heap selection while k is small next to the row; beyond, a full sort.
HEAP_K = 64


def select_top(x: np.ndarray, k: int, axis, largest: bool):
    """(values, int64 indices) of the k largest / smallest along one axis
    of a float tensor, best first (as _ref.search.top_k), or None when the
    kernel does not take x or k (0, out of range)."""
    data = kernel_view(x)
    if data is None or x.dtype.kind != "f":
        return None
    axis = one_axis(axis, x.ndim)
    n = x.shape[axis]
    if not 0 < k <= n:
        return None
    if k > HEAP_K and 16 * k > n:
        found = stable_sort(x, axis, largest)
        head = (slice(None),) * axis + (slice(0, k),)
        return None if found is None else tuple(np.ascontiguousarray(a[head]) for a in found)
    rows = last_axis_rows(data, axis)
    values, index = np.empty((rows.shape[0], k), x.dtype), np.empty((rows.shape[0], k), np.int64)
    parallel_for(rows.shape[0], lambda lo, hi: top_rows(rows, k, largest, values, index, lo, hi),
                 grain=min_items(2 * n))
    shape = moved_shape(x.shape, axis, k)
    return restore_axis(values, shape, axis), restore_axis(index, shape, axis)


SMALL_SORT = 32     # rows up to this long are insertion-sorted
BYTE = np.uint64(255)


@kernel
def sort_key(b, floats, top, inf, ones, descending):
    """The unsigned key whose order is NumPy's order of the value with bits
    b (``top`` the sign bit, ``inf`` the bits of +inf, ``ones`` all bits):
    -0.0 equals 0.0, every NaN sorts last; inverted when ``descending``.
    Every constant has b's type, so the bit operations keep it."""
    if floats:
        magnitude = b & (top ^ ones)
        if magnitude > inf:
            key = ones
        elif magnitude == 0:
            key = top
        elif b & top:
            key = b ^ ones
        else:
            key = b | top
    else:   # signed integers
        key = b ^ top
    return key ^ ones if descending else key


@kernel
def insertion_sort(keys, order, n):
    """Stable sort of keys[:n] carrying order[:n]."""
    for j in range(1, n):
        key, o = keys[j], order[j]
        i = j - 1
        while i >= 0 and keys[i] > key:
            keys[i + 1], order[i + 1] = keys[i], order[i]
            i -= 1
        keys[i + 1], order[i + 1] = key, o


@kernel
def sort_rows(bits, floats, descending, top, inf, ones, out_bits, out_index, first, last):
    """Stable sort of rows first <= r < last of ``bits`` (rows, n; the
    values' bits as unsigned integers, see sort_key), ascending or
    descending, equal values by position: a least-significant-digit radix
    sort on bytes, skipping the bytes every key shares. Writes the sorted
    bits and the positions."""
    n = bits.shape[1]
    digits = bits.itemsize
    keys, spare_keys = np.empty(n, bits.dtype), np.empty(n, bits.dtype)
    order, spare_order = np.empty(n, np.int64), np.empty(n, np.int64)
    count = np.empty((digits, 256), np.int64)
    for r in range(first, last):
        for j in range(n):
            keys[j], order[j] = sort_key(bits[r, j], floats, top, inf, ones, descending), j
        if n <= SMALL_SORT:
            insertion_sort(keys, order, n)
        else:
            count[:] = 0
            for j in range(n):
                key = keys[j]
                for d in range(digits):
                    count[d, (key >> np.uint64(8 * d)) & BYTE] += 1
            for d in range(digits):
                if count[d].max() == n:
                    continue
                total = 0
                for v in range(256):
                    here = count[d, v]
                    count[d, v] = total
                    total += here
                shift = np.uint64(8 * d)
                for j in range(n):
                    slot = (keys[j] >> shift) & BYTE
                    p = count[d, slot]
                    count[d, slot] = p + 1
                    spare_keys[p], spare_order[p] = keys[j], order[j]
                keys, spare_keys = spare_keys, keys
                order, spare_order = spare_order, order
        for j in range(n):
            out_index[r, j] = order[j]
            out_bits[r, j] = bits[r, order[j]]


def stable_sort(x: np.ndarray, axis, descending: bool):
    """(sorted values, int64 indices) along one axis, stable (as
    _ref.search.sort_along), or None when the kernel does not take x."""
    data = kernel_view(x)
    if data is None:
        return None
    axis = one_axis(axis, x.ndim)
    unsigned = np.dtype(f"u{x.dtype.itemsize}")
    rows = last_axis_rows(data, axis).view(unsigned)
    top = unsigned.type(1 << (8 * unsigned.itemsize - 1))
    inf = np.array(np.inf, x.dtype).view(unsigned)[()] if x.dtype.kind == "f" \
        else unsigned.type(0)
    ones = unsigned.type(np.iinfo(unsigned).max)
    values, index = np.empty_like(rows), np.empty(rows.shape, np.int64)
    parallel_for(rows.shape[0], lambda lo, hi: sort_rows(
        rows, x.dtype.kind == "f", descending, top, inf, ones, values, index, lo, hi),
        grain=min_items(8 * rows.shape[1]))
    shape = moved_shape(x.shape, axis, x.shape[axis])
    return restore_axis(values.view(x.dtype), shape, axis), restore_axis(index, shape, axis)


QUERIES = 16    # binary searches run in lockstep (their memory reads overlap)


@kernel
def is_after(right, s, v):
    """The search for v goes past s: s < v (s <= v when ``right``)."""
    return before(s, v) | (right & same(s, v))


@kernel
def search_sorted_tasks(seq, values, right, out, first, last):
    """For values t of ``values`` (rows, m), first <= t < last (flat): the
    first position in row t // m of ``seq`` (rows, n >= 1; sorted, NaN
    last) whose value is >= the value (> when ``right``). Binary searches
    of a fixed number of steps, QUERIES at a time in lockstep, each step a
    select: the reads of one round overlap instead of waiting on each
    other, and no branch is mispredicted."""
    n, m = seq.shape[1], values.shape[1]
    flat = seq.reshape(-1)
    base, row, value = (np.empty(QUERIES, np.int64), np.empty(QUERIES, np.int64),
                        np.empty(QUERIES, values.dtype))
    for t0 in range(first, last, QUERIES):
        count = min(QUERIES, last - t0)
        for q in range(count):
            r, i = divmod(t0 + q, m)
            row[q], value[q], base[q] = r * n, values[r, i], 0
        size = n
        while size > 1:
            half = size >> 1
            for q in range(count):
                at = base[q] + half
                base[q] = at if is_after(right, flat[row[q] + at], value[q]) else base[q]
            size -= half
        for q in range(count):
            r, i = divmod(t0 + q, m)
            out[r, i] = base[q] + is_after(right, flat[row[q] + base[q]], value[q])


def insertion_points(seq: np.ndarray, values: np.ndarray, right: bool):
    """int64 insertion points of values into the rows of seq (as
    SearchSorted's reference), or None when the kernel does not take them
    (other or mixed dtypes)."""
    if type(values) is not np.ndarray or values.dtype != seq.dtype or values.size == 0:
        return None
    rows, queries = kernel_view(seq), kernel_view(values)
    if rows is None or queries is None:
        return None
    rows = rows.reshape(-1, seq.shape[-1])
    queries = queries.reshape(rows.shape[0], -1)
    out = np.empty(queries.shape, np.int64)
    parallel_for(out.size, lambda lo, hi: search_sorted_tasks(
        rows, queries, right, out, lo, hi), grain=min_items(8 * max(seq.shape[-1], 1).bit_length()))
    return out.reshape(values.shape)


# -- reductions over trailing axes ----------------------------------------------------------------
SUM, MEAN, MAX = range(3)
FAST_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


@kernel
def reduce_rows(x, out, kind):
    """out[r] = the sum, mean or maximum of row r of x (R, C). Sums
    accumulate in float64 (:func:`_kernels.libm.sum64`); the maximum
    propagates NaN."""
    cols = x.shape[1]
    for r in range(x.shape[0]):
        if kind == MAX:
            top = x[r, 0]
            for j in range(1, cols):
                v = x[r, j]
                if v > top or v != v:
                    top = v
                    if v != v:
                        break
            out[r] = top
        else:
            total = sum64(x[r])
            out[r] = total / cols if kind == MEAN else total


def reduce_trailing(kind: int, x: np.ndarray, axis, keepdims: bool):
    """A float32/float64 reduction over ``axis`` (None or (): every axis)
    when those are the last axes (any order), with :func:`reduce_rows`;
    None for anything else (other axes, dtypes, empty tensors)."""
    if type(x) is not np.ndarray or x.dtype not in FAST_FLOATS or x.size == 0 \
            or x.ndim == 0:
        return None
    axes = reduce_axes(axis, x.ndim)
    first = x.ndim - len(axes)
    if not axes or sorted(axes) != list(range(first, x.ndim)):
        return None
    rows = math.prod(x.shape[:first])
    out, x2 = np.empty(rows, x.dtype), writable(x).reshape(rows, -1)
    parallel_for(rows, lambda lo, hi: reduce_rows(x2[lo:hi], out[lo:hi], kind),
                 grain=min_items(x2.shape[1]))
    kept = (1,) * len(axes) if keepdims else ()
    return out.reshape(x.shape[:first] + kept)


# -- the ops' kernels: the reference's signature, None to decline -------------------------------
def trailing(kind: int):
    """The kernel of ReduceMax / ReduceMean: :func:`reduce_trailing`."""
    def run(x, axis=(), keep_dims=False):
        return reduce_trailing(kind, x, axis, keep_dims)
    return run


def trailing_without_dtype(kind: int):
    """The kernel of SumExt / MeanExt: :func:`reduce_trailing` when no dtype
    is asked for."""
    def run(input, dim=None, keepdim=False, dtype=None):
        return reduce_trailing(kind, input, dim, keepdim) if dtype is None else None
    return run


def reduce_sum(x, axis=(), keep_dims=False, skip_mode=False):
    """ReduceSum: :func:`reduce_trailing`, unless skip_mode makes no axes
    the identity."""
    return None if skip_mode and not axis else reduce_trailing(SUM, x, axis, keep_dims)


def reduce_prod(x, axis=(), keep_dims=False):
    """ReduceProd over any axes (bool's np.all declined)."""
    return reduce(PROD, x, axis, keep_dims)


def prod_ext(input, dim=None, keepdim=False, dtype=None):
    """ProdExt after the reference's cast."""
    return reduce(PROD, as_sum_dtype(input, dtype), dim, keepdim)


def nansum(input, dim=None, keepdim=False, dtype=None):
    """Nansum of floats (cast first to a float ``dtype``); integer sums
    declined."""
    if input.dtype.kind != "f" or (dtype is not None and np.dtype(dtype).kind != "f"):
        return None
    return reduce(NANSUM, input if dtype is None else input.astype(dtype), dim, keepdim)


def log_sum_exp(input, dim, keepdim=False):
    """LogSumExp in one runner call (max, then the shifted exponentials'
    sum)."""
    return reduce(LOGSUMEXP, input, dim, keepdim)


def reduce_std(x, axis=(), unbiased=True, keep_dims=False):
    """ReduceStd: (std, mean) in one two-pass runner call."""
    return reduce(STD, x, axis, keep_dims, int(unbiased))


def std(input, dim=None, correction=1, keepdim=False):
    """Std with the two-pass runner."""
    found = reduce(STD, input, dim, keepdim, correction)
    return None if found is None else found[0]


def arg_index(largest: bool):
    """The kernel of ArgMaxExt / ArgMinExt: :func:`flat_or_axis_index`."""
    def run(input, dim=None, keepdim=False):
        return flat_or_axis_index(input, dim, keepdim, largest)
    return run


def arg_typed(largest: bool):
    """The kernel of Argmax / Argmin: the index in ``output_type``."""
    def run(input_x, axis=-1, output_type=args.dtype(34)):
        found = arg_search(input_x, axis, False, largest)
        return None if found is None else found[1].astype(output_type)
    return run


def index_and_value(largest: bool):
    """The kernel of ArgMaxWithValue / ArgMinWithValue: (index, value)."""
    def run(input, axis=0, keep_dims=False):
        found = arg_search(input, axis, keep_dims, largest)
        return None if found is None else found[::-1]
    return run


def value_and_index(largest: bool):
    """The kernel of MaxDim / MinDim: (value, int64 index)."""
    def run(input, dim, keepdim=False):
        return arg_search(input, dim, keepdim, largest)
    return run


def extreme_of_all(largest: bool):
    """The kernel of Max / Min: the extreme of every element."""
    def run(input):
        found = arg_search(input.reshape(-1), 0, False, largest)
        return None if found is None else found[0]
    return run


def cumulative(op: int):
    """The kernel of CumSum / CumProd: :func:`scan`."""
    def run(input, axis, exclusive=False, reverse=False):
        return scan(op, input, axis, exclusive, reverse)
    return run


def cumsum_ext(input, dim, dtype=None):
    """CumsumExt after the reference's cast."""
    return scan(CUMSUM, as_sum_dtype(input, dtype), dim)


def running(op: int, index_dtype):
    """The kernel of Cummax / Cummin: (values, indices in index_dtype)."""
    def run(input, axis):
        found = scan(op, input, axis)
        return None if found is None \
            else (found[0], found[1].astype(index_dtype, copy=False))
    return run


def median(x, global_median=False, axis=0, keep_dims=False, ignore_nan=False):
    """Median of floats with a per-row selection (ignore_nan declined); a
    global median has index 0."""
    if ignore_nan:
        return None
    if not global_median:
        return lower_median(x, axis, keep_dims)
    found = lower_median(x.reshape(-1), 0)
    return None if found is None else (found[0], np.zeros((), np.int64))


def median_ext(input):
    """MedianExt: the median selection on the flattened input."""
    found = lower_median(input.reshape(-1), 0)
    return None if found is None else found[0]


def top_k(input, k, sorted=True):
    """TopK along the last axis (int32 indices) with the heap selection."""
    found = select_top(input, int(k), -1, True)
    return None if found is None else (found[0], found[1].astype(np.int32))


def topk_ext(input, k, dim=-1, largest=True, sorted=True):
    """TopkExt with the heap selection."""
    return select_top(input, int(k), dim, largest)


def sort(x, axis=-1, descending=False):
    """Sort with the radix sort (int32 indices)."""
    found = stable_sort(x, axis, descending)
    return None if found is None else (found[0], found[1].astype(np.int32))


def sort_ext(input, dim=-1, descending=False, stable=False):
    """SortExt with the radix sort (stable either way)."""
    return stable_sort(input, dim, descending)


def arg_sort(input, dim=-1, descending=False, stable=False):
    """ArgSort: the radix sort's indices."""
    found = stable_sort(input, dim, descending)
    return None if found is None else found[1]


def search_sorted(sorted_sequence, values, sorter=None, dtype=args.dtype(35),
                  right=False):
    """SearchSorted with a binary search per value (the sequence gathered
    by ``sorter`` first)."""
    seq = sorted_sequence
    if sorter is not None:
        seq = np.take_along_axis(seq, np.asarray(sorter, dtype=np.int64), axis=-1)
    found = insertion_points(seq, values, right)
    return None if found is None else found.astype(dtype)
