"""Numba kernels of the gather, scatter and indexing ops (``numba`` backend).

Gathers, one-hot, triangles, selections and repeats only move values, so
they move raw bits: an array is viewed as unsigned words (uint8 ... uint64)
and one compiled kernel per word width serves every dtype of that size
(float16 is uint16, bool uint8). A row copy uses the widest word that
divides the row's bytes, so a 768-float embedding row moves as 384 uint64.
Scatters do arithmetic and keep their dtype (float32, float64, int32,
int64); the reduction is an integer code.

Source arrays are passed read-only (weights mapped from a model file are,
and one Numba type per dtype avoids a second signature for writable
ones). Every driver returns None where its kernel does not apply (another
dtype, an odd argument, an index out of range), and so does the op's
kernel that calls it (at the end, with the op's signature): the registry
then runs the op's NumPy reference, which returns the result or raises
its own error with its own message. Indices are checked inside the
kernels, so a bad one costs no extra pass: the kernel reports it and
stops.

Work is split into ranges for the worker threads (:func:`split`). Where
the reference is a single np.take or np.repeat of rows wider than a word
and the work fits one thread, the driver declines: NumPy's memmove per
row beats a compiled word loop there (measured 0.5x to 0.9x for rows of
16 B to 3 KB), and the kernel only pays when threads share the rows.
"""
from __future__ import annotations

import math

import numpy as np

from refinfer import args
from refinfer.jit import kernel
from refinfer.threads import current_threads, min_items, parallel_for

from .._ref.indexing import check_rows, class_count, gather_axes, select_axis

INDEX_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))
WORDS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
# Reductions of the scatter runner, in the order of MindSpore's op names.
UPDATE, ADD, SUB, MUL, MAX, MIN = range(6)
SCATTER_DTYPES = (np.dtype(np.float32), np.dtype(np.float64),
                  np.dtype(np.int32), np.dtype(np.int64))
# Below this many elements moved, the reference is faster than the ~10 us
# of Python around a kernel call (tests lower it to reach the kernels).
SMALL = 2048


# -- array views ------------------------------------------------------------
def frozen(a: np.ndarray) -> np.ndarray:
    """``a`` as a C-contiguous, aligned, read-only array (a view unless a
    copy is needed)."""
    flags = a.flags
    if flags.c_contiguous and flags.aligned and not flags.writeable:
        return a
    if not (flags.c_contiguous and flags.aligned):
        a = np.array(a, order="C")
    view = a.view()
    view.flags.writeable = False
    return view


def row_words(a: np.ndarray, row_bytes: int, rows: int) -> np.ndarray:
    """The bytes of C-contiguous ``a`` (size > 0) as ``rows`` rows, in
    the widest word that divides ``row_bytes`` (the unit a kernel
    copies) and fits a's alignment."""
    flat = a.reshape(-1)
    for width in (8, 4, 2):
        if row_bytes % width == 0:
            view = flat.view(WORDS[width])
            if view.flags.aligned:
                return view.reshape(rows, -1)
    return flat.view(np.uint8).reshape(rows, -1)


def like(out: np.ndarray, src: np.ndarray, rows: int) -> np.ndarray:
    """Fresh (aligned) ``out`` in src's words, as ``rows`` rows."""
    return out.reshape(-1).view(src.dtype).reshape(rows, -1)


def element_words(a: np.ndarray, shape: tuple, read_only: bool = True):
    """``a`` as words of its own itemsize, reshaped."""
    if read_only:
        a = frozen(a)
    return a.reshape(-1).view(WORDS[a.dtype.itemsize]).reshape(shape)


def plain(a: np.ndarray) -> bool:
    """Whether ``a`` holds numbers or bools of 1, 2, 4 or 8 bytes
    (complex, long double, strings and objects go to the reference)."""
    return a.dtype.kind in "biuf" and a.dtype.itemsize in WORDS


def word_value(value: np.ndarray, dtype) -> np.generic:
    """A 0-d value cast to ``dtype``, as the word holding its bits."""
    cast = np.asarray(value).astype(dtype).reshape(1)
    return cast.view(WORDS[cast.dtype.itemsize])[0]


def index_array(a) -> np.ndarray | None:
    """``a`` read-only when it is an int32/int64 tensor, else None."""
    if not isinstance(a, np.ndarray) or a.dtype not in INDEX_DTYPES:
        return None
    return frozen(a)


def grain(item_bytes: int) -> int:
    """Items per thread so that each moves about ELEMENT_WORK floats."""
    return min_items(max(item_bytes // 4, 1))


def pieces(count: int, item_bytes: int) -> list[tuple[int, int]]:
    """[start, stop) ranges of [0, count) for the worker threads, one each;
    for the count-then-fill kernels, whose two passes need the same
    ranges."""
    n = max(1, min(current_threads(), count // grain(item_bytes)))
    return [(count * k // n, count * (k + 1) // n) for k in range(n)]


def small(count: int) -> bool:
    """Whether ``count`` items are too few to pay for a kernel call."""
    return count < SMALL


def split(count: int, item_bytes: int, fn) -> bool:
    """fn(start, stop) over [0, count) of items of ``item_bytes``: in
    ranges of a worker thread each (see :func:`grain`), or at once on the
    calling thread when one range holds all. Returns whether no range
    found a bad index (checking kernels return -1 when all is well, the
    others None)."""
    if one_range(count, item_bytes):
        result = fn(0, count)
        return result is None or result < 0
    results = []
    parallel_for(count, lambda lo, hi: results.append(fn(lo, hi)), grain=grain(item_bytes))
    return all(r is None or r < 0 for r in results)


def one_range(count: int, item_bytes: int) -> bool:
    """Whether :func:`split` runs all on the calling thread."""
    return current_threads() == 1 or count < 2 * grain(item_bytes)


# -- gathers -----------------------------------------------------------------
# The kernels below take a range [start, stop) of the flat items of a
# (rows, count) grid and walk it one row segment at a time: a division per
# item would cost more than copying it.
@kernel
def segment(t, stop, count):
    """The part of [t, stop) in t's row of a (rows, count) grid: (row,
    first, last) with items first <= n < last of that row."""
    row = t // count
    first = t - row * count
    return row, first, min(count, first + stop - t)


@kernel
def in_range(v, length, wrap):
    """Index v as int64, plus ``length`` when negative and ``wrap``; -1
    when that falls outside [0, length)."""
    v = np.int64(v)
    if wrap and v < 0:
        v += length
    if v < 0 or v >= length:
        return np.int64(-1)
    return v


@kernel
def tuple_offset(index, m, bounds):
    """The row-major offset of the index tuple index[m] (index (M, K))
    into axes of lengths ``bounds`` (K), or -1 if an entry is outside."""
    if index.shape[1] == 1:     # the common case, without a loop
        return in_range(index[m, 0], bounds[0], False)
    flat = np.int64(0)
    for a in range(index.shape[1]):
        v = in_range(index[m, a], bounds[a], False)
        if v < 0:
            return -1
        flat = flat * bounds[a] + v
    return flat


@kernel
def flat_rows(index, bounds, out):
    """out[m] = the offset of index tuple m (:func:`tuple_offset`);
    returns the first m with an entry out of range, or -1."""
    for m in range(index.shape[0]):
        out[m] = tuple_offset(index, m, bounds)
        if out[m] < 0:
            return m
    return -1


@kernel
def take_rows(src, index, wrap, out, start, stop):
    """Gathered rows of W words: out[r, n] = src[r, index[r // O, n]] with
    src (R, A * W), index (B, N), out (R, N * W), R = B * O, for the flat
    (r, n) in [start, stop); negative indices count from the end when
    ``wrap``. Returns -1, or the n of an index outside [0, A) (out is
    then incomplete)."""
    count = index.shape[1]
    width = np.uint64(out.shape[1] // count)
    length = src.shape[1] // np.int64(width)
    outer = out.shape[0] // index.shape[0]
    t = start
    while t < stop:
        r, first, last = segment(t, stop, count)
        b = r // outer
        if width == 1:      # one word: a store per item, unsigned offsets
            for n in range(np.uint64(first), np.uint64(last)):
                row = in_range(index[b, n], length, wrap)
                if row < 0:
                    return np.int64(n)
                out[r, n] = src[r, np.uint64(row)]
        else:
            for n in range(first, last):
                row = in_range(index[b, n], length, wrap)
                if row < 0:
                    return n
                s0, d0 = np.uint64(row) * width, np.uint64(n) * width
                for w in range(width):
                    out[r, d0 + w] = src[r, s0 + w]
        t += last - first
    return -1


def take(params: np.ndarray, index: np.ndarray, wrap: bool, outer: int,
         out_shape: tuple) -> np.ndarray | None:
    """Rows of ``params`` viewed as (B, outer, A, row) with index (B, N):
    out[b, o, n] = params[b, o, index[b, n]], of ``out_shape``; negative
    indices count from the end when ``wrap``. None for an empty output
    or an index out of range."""
    rows, count = index.shape[0] * outer, index.shape[1]
    row_bytes = math.prod(out_shape) * params.itemsize // max(rows * count, 1)
    if row_bytes == 0:
        return None     # empty: the reference decides whether to check indices
    src = row_words(frozen(params), row_bytes, rows)
    dst = np.empty((rows, count * (row_bytes // src.itemsize)), src.dtype)
    good = split(rows * count, row_bytes,
                 lambda lo, hi: take_rows(src, index, wrap, dst, lo, hi))
    return dst.view(params.dtype).reshape(out_shape) if good else None


def batched_take(params, indices, axis: int, batch_dims: int, wrap: bool):
    """params.take(indices, axis) with the first batch_dims axes shared
    (Gather, IndexSelect, Embedding); negative indices count from the
    end when ``wrap``. None for other index dtypes, a bad index, or where
    the reference is np.take (``wrap``, no batch axes) with rows wider
    than a word and one thread to run on: NumPy copies each row with
    memmove, which the compiled word loop does not beat (measured: 0.5x
    to 0.9x for 16 B to 3 KB rows; one-word rows run 1x to 2x faster)."""
    shape = params.shape
    if not (isinstance(indices, np.ndarray) and 0 <= batch_dims <= axis < len(shape)):
        return None
    outer = math.prod(shape[batch_dims:axis])
    row_bytes = params.itemsize * math.prod(shape[axis + 1:])
    if wrap and not batch_dims and row_bytes > 8 and one_range(indices.size * outer, row_bytes):
        return None     # np.take itself (checked first: it is the common case)
    index = index_array(indices)
    if index is None or not plain(params) or indices.shape[:batch_dims] != shape[:batch_dims] \
            or small(index.size * params.size // max(shape[axis], 1)):
        return None
    lead = math.prod(shape[:batch_dims])
    out_shape = shape[:axis] + indices.shape[batch_dims:] + shape[axis + 1:]
    return take(params, index.reshape(lead, index.size // max(lead, 1)), wrap, outer,
                out_shape)


def index_tuples(indices, shape) -> tuple | None:
    """indices (int32/int64, last axis K in [1, rank]) as read-only
    (M, K) tuples into ``shape``'s first K axes, with those axes' lengths
    (GatherNd, scatters); None otherwise."""
    index = index_array(indices)
    if index is None or index.ndim == 0 or not 1 <= index.shape[-1] <= len(shape):
        return None
    depth = index.shape[-1]
    return index.reshape(-1, depth), np.array(shape[:depth], np.int64)


def take_nd(params, indices):
    """params[tuple(indices[..., k])] (GatherNd), None where not applied."""
    tuples = index_tuples(indices, params.shape)
    if tuples is None or not plain(params) or small(indices.size * params.size):
        return None
    rows = np.empty((1, tuples[0].shape[0]), np.int64)
    if flat_rows(*tuples, rows.reshape(-1)) >= 0:
        return None
    return take(params, frozen(rows), False, 1,
                indices.shape[:-1] + params.shape[indices.shape[-1]:])


@kernel
def take_along(src, index, out, start, stop):
    """out[o, n, i] = src[o, index[o, n, i], i] (src (O, A, I), index and
    out (O, N, I)) for the flat (o, n) in [start, stop); negative indices
    count from the end. Returns the first bad flat (o, n), or -1."""
    length, count = src.shape[1], index.shape[1]
    t = start
    while t < stop:
        o, first, last = segment(t, stop, count)
        for n in range(first, last):
            for i in range(index.shape[2]):
                v = in_range(index[o, n, i], length, True)
                if v < 0:
                    return o * count + n
                out[o, n, i] = src[o, v, i]
        t += last - first
    return -1


def gather_along(x, dim: int, indices):
    """GatherD: y[..i_dim..] = x[..indices[..i_dim..]..], y of indices'
    shape (x cut to it off ``dim``); None where not applied."""
    index = index_array(indices)
    if index is None or not plain(x) or x.ndim == 0 or index.ndim != x.ndim \
            or small(index.size):
        return None
    dim %= x.ndim
    if any(index.shape[a] > x.shape[a] for a in range(x.ndim) if a != dim):
        return None
    window = tuple(slice(None) if a == dim else slice(0, index.shape[a])
                   for a in range(x.ndim))
    out = np.empty(index.shape, x.dtype)
    if out.size == 0:
        return None     # the reference checks the empty case's bounds
    shape = (math.prod(index.shape[:dim]), -1, math.prod(index.shape[dim + 1:]))
    src = element_words(x[window], shape)
    index = index.reshape(shape[0], index.shape[dim], shape[2])
    dst = element_words(out, index.shape, read_only=False)
    good = split(shape[0] * index.shape[1], shape[2] * x.dtype.itemsize,
                 lambda lo, hi: take_along(src, index, dst, lo, hi))
    return out if good else None


# -- scatters ----------------------------------------------------------------
@kernel
def combine(code, a, b):
    """a (code) b for the scatter reductions; MAX and MIN propagate NaN."""
    if code == UPDATE:
        return b
    if code == ADD:
        return a + b
    if code == SUB:
        return a - b
    if code == MUL:
        return a * b
    if code == MAX:
        return a if a >= b or a != a else b
    return a if a <= b or a != a else b


@kernel
def scatter_rows(out, index, bounds, updates, code, start, stop):
    """Columns [start, stop) of out (R, W): out[r_m] = out[r_m] (code)
    updates[m] for m in order, r_m the offset of index tuple m (see
    :func:`tuple_offset`), so repeated rows accumulate (the last update
    wins for UPDATE). Returns -1, or the first m whose tuple is out of
    range (out is then incomplete)."""
    if stop - start == 1:       # one column: no inner loop to set up
        for m in range(index.shape[0]):
            r = tuple_offset(index, m, bounds)
            if r < 0:
                return m
            out[r, start] = combine(code, out[r, start], updates[m, start])
        return -1
    base = np.uint64(start)     # unsigned column offsets: no wrap-around
    for m in range(index.shape[0]):     # checks, so the loops vectorise
        r = tuple_offset(index, m, bounds)
        if r < 0:
            return m
        if code == UPDATE:      # one loop per code: the code is constant
            for j in range(np.uint64(stop - start)):    # in each
                out[r, base + j] = updates[m, base + j]
        elif code == ADD:
            for j in range(np.uint64(stop - start)):
                out[r, base + j] += updates[m, base + j]
        elif code == SUB:
            for j in range(np.uint64(stop - start)):
                out[r, base + j] -= updates[m, base + j]
        elif code == MUL:
            for j in range(np.uint64(stop - start)):
                out[r, base + j] *= updates[m, base + j]
        elif code == MAX:
            for j in range(np.uint64(stop - start)):
                out[r, base + j] = combine(MAX, out[r, base + j], updates[m, base + j])
        else:
            for j in range(np.uint64(stop - start)):
                out[r, base + j] = combine(MIN, out[r, base + j], updates[m, base + j])
    return -1


def scatter(target, indices, updates, code: int, fresh: bool = False):
    """A copy of ``target`` (``target`` itself when ``fresh``) with
    ``updates`` combined in at the index tuples of ``indices``
    (TensorScatter*, ScatterNd); None where not applied."""
    dtype = target.dtype
    if code == UPDATE and dtype.itemsize in (4, 8):
        dtype = np.dtype(f"i{dtype.itemsize}")    # an update moves bits
    tuples = index_tuples(indices, target.shape)
    if dtype not in SCATTER_DTYPES or tuples is None or target.size == 0 \
            or not isinstance(updates, np.ndarray) or small(updates.size) \
            or updates.shape != indices.shape[:-1] + target.shape[indices.shape[-1]:]:
        return None
    out = target if fresh else np.array(target, order="C")
    width = math.prod(target.shape[indices.shape[-1]:])
    grid = out.view(dtype).reshape(-1, width)
    values = frozen(updates.astype(target.dtype, copy=False)).view(dtype)
    values = values.reshape(-1, width)
    good = split(width, values.nbytes // max(width, 1),
                 lambda lo, hi: scatter_rows(grid, *tuples, values, code, lo, hi))
    return out if good else None


# -- one-hot, triangles ------------------------------------------------------
@kernel
def one_hot_rows(index, depth, on, off, out, start, stop):
    """Rows [start, stop) of out (O, depth * I): ``off`` everywhere, then
    ``on`` at out[o, c * I + i] where index[o, i] == c is in [0, depth)."""
    inner = index.shape[1]
    for o in range(start, stop):
        for j in range(out.shape[1]):
            out[o, j] = off
        for i in range(inner):
            c = np.int64(index[o, i])
            if 0 <= c < depth:
                out[o, c * inner + i] = on


def one_hot_encode(indices, depth: int, on_value, off_value, axis: int):
    """OneHot with the class axis at ``axis`` (-1: last); None where not
    applied (other index dtypes, on/off not 0-d, bad arguments)."""
    index = index_array(indices)    # int32 as int64 too: it is small beside out
    index = None if index is None else frozen(index.astype(np.int64, copy=False))
    on, off = np.asarray(on_value), np.asarray(off_value)
    if index is None or not plain(on) or on.ndim or off.ndim or depth < 0 \
            or not -1 <= axis <= index.ndim or small(index.size * depth):
        return None
    axis = index.ndim if axis == -1 else axis
    out = np.empty(index.shape[:axis] + (depth,) + index.shape[axis:], on.dtype)
    if out.size == 0:
        return out
    rows = math.prod(index.shape[:axis])
    index = index.reshape(rows, -1)
    dst = element_words(out, (rows, out.size // rows), read_only=False)
    on_word, off_word = word_value(on, on.dtype), word_value(off, on.dtype)
    split(rows, out.nbytes // rows,
          lambda lo, hi: one_hot_rows(index, depth, on_word, off_word, dst, lo, hi))
    return out


@kernel
def triangle_rows(src, out, diagonal, lower, start, stop):
    """Rows [start, stop) of the flat (B * R) rows of src, out (B, R, C):
    keep j - i <= diagonal (``lower``) or j - i >= diagonal, zero the
    rest."""
    cols, zero = src.shape[2], out.dtype.type(0)
    t = start
    while t < stop:
        b, first, last = segment(t, stop, src.shape[1])
        for i in range(first, last):
            cut = min(max(i + diagonal + 1 if lower else i + diagonal, 0), cols)
            keep_lo, keep_hi = (0, cut) if lower else (cut, cols)
            for j in range(cols):
                out[b, i, j] = src[b, i, j] if keep_lo <= j < keep_hi else zero
        t += last - first


def triangle(x, diagonal: int, lower: bool):
    """Tril (``lower``) or Triu of the last two axes; None for rank < 2."""
    if x.ndim < 2 or not plain(x) or small(x.size):
        return None
    out = np.empty(x.shape, x.dtype)
    if out.size == 0:
        return out
    shape = (-1,) + x.shape[-2:]
    src = element_words(x, shape)
    dst = element_words(out, shape, read_only=False)
    split(src.shape[0] * src.shape[1], x.shape[-1] * x.dtype.itemsize,
          lambda lo, hi: triangle_rows(src, dst, diagonal, lower, lo, hi))
    return out


# -- count-then-fill selections ----------------------------------------------
# Both passes run without branching on the data (random masks would
# mispredict every other item): the count adds 0 or 1, and the fills
# write every item at the next free place, which advances only for kept
# ones.
CHUNK = 4096    # columns whose hits nonzero_fill lists at a time


@kernel
def count_set(x, bits, start, stop):
    """How many of x[start:stop] have a bit of ``bits`` set."""
    count, base = 0, np.uint64(start)
    for j in range(np.uint64(stop - start)):    # unsigned: vectorises
        count += (x[base + j] & bits) != 0
    return count


def nonzero_bits(dtype: np.dtype):
    """The word bits that make a value non-zero: all but the sign for
    floats (-0.0 is zero, NaN is not), all for integers and bools."""
    word = WORDS[dtype.itemsize]
    bits = (1 << 8 * dtype.itemsize) - 1
    return word(bits >> 1 if dtype.kind == "f" else bits)


def count_then_fill(x: np.ndarray, bits, allocate, fill):
    """Split flat words ``x`` into thread ranges, count the items with a
    bit of ``bits`` set in each, ``out = allocate(total)``, then
    ``fill(start, stop, first, last)`` each range's items into out's
    places [first, last); returns out."""
    bounds = pieces(x.size, x.dtype.itemsize)
    ends = np.zeros(len(bounds) + 1, np.int64)

    def count(lo, hi):
        for k in range(lo, hi):
            ends[k + 1] = count_set(x, bits, *bounds[k])
    parallel_for(len(bounds), count)
    ends = np.cumsum(ends)
    out = allocate(int(ends[-1]))

    def run(lo, hi):
        for k in range(lo, hi):
            fill(out, *bounds[k], int(ends[k]), int(ends[k + 1]))
    parallel_for(len(bounds), run)
    return out


@kernel
def nonzero_fill(x, bits, shape, out, by_axis, start, stop, first):
    """The coordinates (in ``shape``) of the items of flat x[start:stop]
    with a bit of ``bits`` set, from row ``first`` of out (count, rank),
    or column ``first`` of out (rank, count) when ``by_axis``. A row's
    hits are listed (CHUNK columns at a time) before their coordinates
    are written."""
    rank, cols = shape.size, shape[shape.size - 1]
    lead = np.zeros(rank, np.int64)     # the current row's coordinates
    rest = start // cols
    for a in range(rank - 2, -1, -1):
        lead[a] = rest % shape[a]
        rest //= shape[a]
    found = np.empty(min(cols, CHUNK), np.int64)
    k, t = first, start
    while t < stop:
        _, j0, j1 = segment(t, stop, cols)
        j1 = min(j1, j0 + CHUNK)
        row, hits = np.uint64(t - j0), np.uint64(0)     # unsigned: no wrap-around
        for j in range(np.uint64(j0), np.uint64(j1)):   # checks in the loop
            found[hits] = j
            hits += np.uint64((x[row + j] & bits) != 0)
        put_coordinates(out, by_axis, lead, found, np.int64(hits), k)
        k, t = k + np.int64(hits), t + j1 - j0
        a = rank - 2
        while j1 == cols and a >= 0:    # the next row
            lead[a] += 1
            if lead[a] < shape[a]:
                break
            lead[a] = 0
            a -= 1


@kernel
def put_coordinates(out, by_axis, lead, found, hits, k):
    """Places k.. of out get (lead[:-1], found[i]) for i < hits (loops
    kept branch-free: this runs once per hit)."""
    last, base = lead.size - 1, np.uint64(k)
    if by_axis:
        for a in range(last):
            for i in range(np.uint64(hits)):
                out[a, base + i] = lead[a]
        for i in range(np.uint64(hits)):
            out[last, base + i] = found[i]
    else:
        for a in range(last):
            for i in range(np.uint64(hits)):
                out[base + i, a] = lead[a]
        for i in range(np.uint64(hits)):
            out[base + i, last] = found[i]


def nonzero(x: np.ndarray, by_axis: bool) -> np.ndarray | None:
    """The int64 coordinates of x's non-zero items (rank >= 1) in C
    order: (count, rank), or (rank, count) when ``by_axis``; None for
    small or other inputs."""
    if not plain(x) or small(x.size):
        return None
    if x.size == 0:
        return np.empty((x.ndim, 0) if by_axis else (0, x.ndim), np.int64)
    flat, bits = element_words(x, (-1,)), nonzero_bits(x.dtype)
    shape = np.array(x.shape, np.int64)
    return count_then_fill(
        flat, bits,
        lambda total: np.empty((x.ndim, total) if by_axis else (total, x.ndim), np.int64),
        lambda out, lo, hi, first, last: nonzero_fill(flat, bits, shape, out, by_axis,
                                                      lo, hi, first))


@kernel
def select_fill(x, keep, out, start, stop, first, last):
    """out[first:last] = the items of x[start:stop] where keep (uint8) is
    set; stops when the places are full, so never writes past last."""
    k = first
    for t in range(start, stop):
        if k == last:
            return
        out[k] = x[t]
        k += keep[t] != 0


def compress(x: np.ndarray, mask: np.ndarray):
    """x[mask] as a 1-D array for a bool mask of x's shape; None else."""
    if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ \
            or mask.shape != x.shape or not plain(x) or small(x.size):
        return None
    flat, keep = element_words(x, (-1,)), element_words(mask, (-1,))
    out = count_then_fill(keep, np.uint8(1), lambda total: np.empty(total, flat.dtype),
                          lambda dst, lo, hi, first, last: select_fill(flat, keep, dst, lo,
                                                                       hi, first, last))
    return out.view(x.dtype)


# -- repeats -----------------------------------------------------------------
@kernel
def repeat_rows(src, counts, out, start, stop, first):
    """Rows of W words repeated: counts[a] copies of src[o, a] in a row of
    out (O, counts.sum() * W), for the flat (o, a) in [start, stop) of
    src (O, A * W) (counts >= 0); ``first``: the place of item ``start``
    in its row of out (the sum of the counts before it)."""
    length = counts.size
    width = np.uint64(src.shape[1] // length)
    one, place = np.uint64(1), np.uint64(first)
    t = start
    while t < stop:
        o, a0, a1 = segment(t, stop, length)
        if a0 == 0:
            place = np.uint64(0)
        for a in range(a0, a1):
            end = place + np.uint64(counts[a])
            if width == 1:      # one word: a store per repeat, no inner loop
                value = src[o, np.uint64(a)]
                while place < end:
                    out[o, place] = value
                    place += one
            else:
                s0 = np.uint64(a) * width
                while place < end:
                    d0 = place * width
                    for w in range(width):
                        out[o, d0 + w] = src[o, s0 + w]
                    place += one
        t += a1 - a0


def repeat(x: np.ndarray, repeats, dim, output_size):
    """np.repeat(x, repeats, dim) (dim None: flattened first) with int or
    1-D int repeats; None where not applied (negative repeats, a wrong
    output_size, bad arguments), or where np.repeat's memmove per row
    wins: rows wider than a word, on one thread."""
    if not plain(x):
        return None
    if dim is None:
        x, dim = x.reshape(-1), 0
    if not -x.ndim <= dim < x.ndim:
        return None
    dim %= x.ndim
    counts, length = np.asarray(repeats), x.shape[dim]
    if counts.dtype.kind not in "iu" or counts.ndim > 1 \
            or counts.size not in (1, length) or counts.size and counts.min() < 0:
        return None
    counts = np.broadcast_to(counts, (length,)).astype(np.int64)
    total, outer = int(counts.sum()), math.prod(x.shape[:dim])
    row_bytes = math.prod(x.shape[dim + 1:]) * x.dtype.itemsize
    item_bytes = row_bytes * max(total // max(length, 1), 1)    # per source row
    if output_size is not None and output_size != total \
            or small(total * x.size // max(length, 1)) \
            or row_bytes > 8 and one_range(outer * length, item_bytes):
        return None
    out = np.empty(x.shape[:dim] + (total,) + x.shape[dim + 1:], x.dtype)
    if out.size == 0:
        return out
    src = row_words(frozen(x), row_bytes, outer)
    dst = like(out, src, outer)
    split(outer * length, item_bytes,
          lambda lo, hi: repeat_rows(src, counts, dst, lo, hi, int(counts[:lo % length].sum())))
    return out


# -- the ops' kernels --------------------------------------------------------
def gather(input_params, input_indices, axis, batch_dims=0):
    """Gather as row copies (:func:`batched_take`), negative indices
    counting from the end."""
    axis, batch_dims = gather_axes(input_params, input_indices, axis,
                                   batch_dims)
    return batched_take(input_params, input_indices, axis, batch_dims, True)


def index_select(input, dim, index):
    """IndexSelect as row copies (:func:`batched_take`) of a 0-d or 1-D
    index."""
    axis = select_axis(input, dim, index)
    return batched_take(input, index.reshape(-1), axis, 0, True)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False):
    """Embedding as row copies (:func:`batched_take`); None with max_norm."""
    check_rows(input, weight)
    if max_norm is not None:
        return None
    return batched_take(weight, input, 0, 0, False)


def gather_d(x, dim, index):
    """GatherD in one pass (:func:`gather_along`)."""
    return gather_along(x, int(dim), index)


def gather_nd(input_x, indices):
    """GatherNd as row copies (:func:`take_nd`)."""
    return take_nd(input_x, indices)


def tensor_scatter(code: int):
    """The kernel of the TensorScatter op whose reduction is ``code``
    (UPDATE ... MIN): :func:`scatter` into a copy of input_x."""
    def tensor_scatter_kernel(input_x, indices, updates):
        return scatter(input_x, indices, updates, code)
    return tensor_scatter_kernel


def scatter_nd(indices, updates, shape):
    """ScatterNd: :func:`scatter` (ADD, in index order) into zeros; None
    for bool updates (combined by logical or)."""
    if updates.dtype == np.bool_:
        return None
    return scatter(np.zeros(shape, dtype=updates.dtype), indices, updates, ADD,
                   fresh=True)


def one_hot(indices, depth, on_value, off_value, axis=-1):
    """OneHot in one pass (:func:`one_hot_encode`)."""
    return one_hot_encode(indices, int(depth), on_value, off_value, int(axis))


def one_hot_ext(tensor, num_classes, on_value, off_value, axis=-1):
    """OneHotExt in one pass (:func:`one_hot_encode`), num_classes -1
    meaning max(tensor) + 1."""
    return one_hot_encode(tensor, class_count(tensor, num_classes), on_value, off_value,
                          int(axis))


def tril(input, diagonal=0):
    """Tril and TrilExt as one masked copy (:func:`triangle`)."""
    return triangle(input, int(diagonal), True)


def triu(input, diagonal=0):
    """Triu as one masked copy (:func:`triangle`)."""
    return triangle(input, int(diagonal), False)


def non_zero(input):
    """NonZero as count-then-fill (:func:`nonzero`); None for rank 0 (an
    error)."""
    return nonzero(input, by_axis=False) if input.ndim else None


def non_zero_ext(input):
    """NonZeroExt as count-then-fill (:func:`nonzero`), the rows of one
    (rank, count) array."""
    out = nonzero(np.atleast_1d(input), by_axis=True)
    return None if out is None else tuple(out)


def masked_select(input, mask):
    """MaskedSelect as count-then-fill (:func:`compress`) for a bool mask
    of input's shape."""
    return compress(input, mask)


def repeat_interleave(input, repeats, dim=None, output_size=None):
    """RepeatInterleaveInt and RepeatInterleaveTensor as row copies at
    precomputed offsets (:func:`repeat`)."""
    return repeat(input, repeats, None if dim is None else int(args.scalar(dim)),
                  None if output_size is None else int(args.scalar(output_size)))
