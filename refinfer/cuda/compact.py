"""The ``cuda`` kernels of the ops whose result size depends on the
values: NonZero, NonZeroExt, MaskedSelect, MaskedScatter, ListDiff,
SubAndFilter, Unique, UniqueWithPad and UniqueConsecutive, and the index
lists TrilIndices and TriuIndices, declared in :data:`KERNELS`.

Every one is a *compaction*: a kernel marks the elements kept (nonzero,
under the mask, not in y, in range, the first of their value or of a
run), :func:`kept_positions` finds where they lie (np.flatnonzero on the
device: each of up to CHUNKS threads counts the marks of its chunk, one
thread turns the counts into starting places, each thread writes the
positions of its chunk there), the count is **read back** (one scalar:
the size of the result, which the host must know to allocate it), and
the result is filled from the positions by gathers of index.py.

Unique compares every element with those before it (O(n^2), as sort.py's
rank sort, with its order: NaN equals NaN as np.unique's); the positions'
running count gives each element's place among the values kept.
"""
from __future__ import annotations

import numba
import numpy as np

from refinfer import registry

from . import device
from .device import cuda
from .fill import filled
from .index import broadcast_to, cast, concat, gather, transpose
from .layout import flat
from .scatter import UPDATE, _combine_rows
from .sort import _before

CHUNKS = 1024           # threads counting marks: the scan over them is serial


# -- the kernels ---------------------------------------------------------------
@device.jit
def _count_chunks(keep, chunk, counts):
    """counts[c] = the marks among keep[c * chunk : (c + 1) * chunk]."""
    for c in range(cuda.grid(1), counts.size, cuda.gridsize(1)):
        stop, total = (c + 1) * chunk, 0
        if stop > keep.size:
            stop = keep.size
        for i in range(c * chunk, stop):
            if keep[i]:
                total += 1
        counts[c] = total


@device.jit
def _starts(counts, starts):
    """starts[c] = the marks before chunk c; starts[-1] their total (one
    thread: there are at most CHUNKS)."""
    if cuda.grid(1) == 0:
        total = 0
        for c in range(counts.size):
            starts[c] = total
            total += counts[c]
        starts[counts.size] = total


@device.jit
def _positions(keep, chunk, starts, positions, ranks):
    """positions[k] = the index of the k-th mark; ranks[i] = the marks up
    to and including i, less one (np.cumsum(keep) - 1)."""
    for c in range(cuda.grid(1), starts.size - 1, cuda.gridsize(1)):
        stop, at = (c + 1) * chunk, starts[c]
        if stop > keep.size:
            stop = keep.size
        for i in range(c * chunk, stop):
            if keep[i]:
                positions[at] = i
                at += 1
            ranks[i] = at - 1


@device.jit
def _nonzero(x, keep):
    """keep[i] = x[i] != 0 (NaN is nonzero)."""
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        keep[i] = x[i] != 0


@device.jit
def _not_in(x, y, keep):
    """keep[i] = x[i] equals no element of y."""
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        found = False
        for j in range(y.size):
            if x[i] == y[j]:
                found = True
                break
        keep[i] = not found


@device.jit
def _in_range(x, shift, limit, keep):
    """keep[i] = 0 <= x[i] - shift < limit, in int64."""
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        value = np.int64(x[i]) - shift
        keep[i] = 0 <= value < limit


@device.jit
def _shifted(x, positions, shift, values, index):
    """values[k] = x[positions[k]] - shift (int64, stored wrapping into
    values' dtype); index[k] = positions[k]."""
    for k in range(cuda.grid(1), positions.size, cuda.gridsize(1)):
        values[k] = np.int64(x[positions[k]]) - shift
        index[k] = positions[k]


@device.jit
def _first_seen(x, first, keep):
    """first[i] = the first j with x[j] equal to x[i] (NaN equal to NaN);
    keep[i] = first[i] == i."""
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        j = 0
        while _before(x[j], x[i], False) or _before(x[i], x[j], False):
            j += 1
        first[i] = j
        keep[i] = j == i


@device.jit
def _run_starts(x, width, keep):
    """keep[r] = row r of x (viewed (rows, width)) is the first row or
    differs from the row before it (NaN differs from NaN, as !=)."""
    for r in range(cuda.grid(1), keep.size, cuda.gridsize(1)):
        differs = r == 0
        for j in range(width):
            if not differs and x[r * width + j] != x[(r - 1) * width + j]:
                differs = True
        keep[r] = differs


@device.jit
def _run_lengths(positions, length, counts):
    """counts[k] = positions[k + 1] - positions[k], the last up to length."""
    for k in range(cuda.grid(1), positions.size, cuda.gridsize(1)):
        end = positions[k + 1] if k + 1 < positions.size else length
        counts[k] = end - positions[k]


@device.jit
def _coordinates(positions, dims, out, place_stride, axis_stride):
    """out[k * place_stride + d * axis_stride] = coordinate d of flat
    index positions[k] in an array of shape ``dims`` (C order)."""
    for k in range(cuda.grid(1), positions.size, cuda.gridsize(1)):
        rest = positions[k]
        for d in range(dims.size - 1, -1, -1):
            out[k * place_stride + d * axis_stride] = rest % dims[d]
            rest //= dims[d]


@device.jit
def _triangle(starts, firsts, out):
    """out (2, n): row i's entries from starts[i] to starts[i + 1], its
    columns counting up from firsts[i]."""
    for i in range(cuda.grid(1), starts.size - 1, cuda.gridsize(1)):
        for t in range(starts[i + 1] - starts[i]):
            out[0, starts[i] + t] = i
            out[1, starts[i] + t] = firsts[i] + t


# -- the compaction ------------------------------------------------------------
def kept_positions(keep):
    """(positions, ranks) of the marks of the device array ``keep``: the
    int64 indices of the marked elements in order (np.flatnonzero), and
    for every element the marks up to it less one (np.cumsum - 1). The
    count is read back to size ``positions``."""
    keep = flat(keep)
    n = keep.size
    ranks = device.empty((n,), np.int64)
    if n == 0:
        return device.empty((0,), np.int64), ranks
    chunks = min(n, CHUNKS)
    chunk = -(-n // chunks)
    chunks = -(-n // chunk)
    counts, starts = device.empty((chunks,), np.int64), device.empty((chunks + 1,),
                                                                     np.int64)
    device.launch(_count_chunks, chunks, keep, chunk, counts)
    device.launch(_starts, 1, counts, starts)
    total = int(device.to_host(starts[chunks:])[0])     # the one value read back
    positions = device.empty((total,), np.int64)
    device.launch(_positions, chunks, keep, chunk, starts, positions, ranks)
    device.release(counts)      # scratch: back to the pool (stream order keeps
    device.release(starts)      # the launches above reading them first)
    return positions, ranks


def _marked(kernel, count: int, *args):
    """A bool device array of ``count`` marks set by ``kernel(*args, keep)``."""
    keep = device.empty((count,), np.bool_)
    if count:
        device.launch(kernel, count, *args, keep)
    return keep


def _real(*tensors) -> bool:
    """Whether no tensor is complex or float16 (declined: the kernels
    compare real values, and float16 comparisons are not compiled)."""
    return all(np.dtype(t.dtype).kind != "c" and t.dtype != np.float16
               for t in tensors)


def _nonzero_marks(x):
    """x != 0 for every element of x (flat)."""
    return _marked(_nonzero, x.size, flat(x))


# -- NonZero, MaskedSelect, MaskedScatter --------------------------------------
def _coordinates_of(x, by_axis: bool):
    """The coordinates of x's nonzero elements: (count, rank), or
    (rank, count) where ``by_axis``, int64."""
    positions, _ = kept_positions(_nonzero_marks(x))
    rank, count = x.ndim, positions.size
    out = device.empty((rank, count) if by_axis else (count, rank), np.int64)
    if out.size:
        device.launch(_coordinates, count, positions, device.constant(tuple(x.shape)),
                      flat(out), 1 if by_axis else rank, count if by_axis else 1)
    return out


def non_zero(input):
    """NonZero: (count, rank) int64 coordinates; a 0-d input declines."""
    if input.ndim == 0 or not _real(input):
        return None
    return _coordinates_of(input, False)


def non_zero_ext(input):
    """NonZeroExt: one int64 array of coordinates per axis (0-d as 1-D)."""
    if not _real(input):
        return None
    x = input.reshape((1,)) if input.ndim == 0 else input
    rows = _coordinates_of(x, True)
    return tuple(rows[d] for d in range(x.ndim))


def _broadcast_pair(input, mask):
    """input and mask broadcast against each other (device copies), None
    where they do not."""
    try:
        shape = np.broadcast_shapes(tuple(input.shape), tuple(mask.shape))
    except ValueError:
        return None
    return broadcast_to(input, shape), broadcast_to(mask, shape)


def masked_select(input, mask):
    """MaskedSelect: the elements of input (broadcast with mask) where mask
    is nonzero, in C order."""
    pair = _broadcast_pair(input, mask)
    if pair is None or not _real(mask):
        return None
    values, where = pair
    positions, _ = kept_positions(_nonzero_marks(where))
    return gather(flat(values), positions, 0)


def masked_scatter(input, mask, source):
    """MaskedScatter: a copy of input whose k-th position under mask
    (broadcast to input's shape) takes source's k-th element; a source
    too short or of another dtype declines."""
    if mask.dtype != np.bool_:
        return None
    where = broadcast_to(mask, tuple(input.shape))
    if where is None:
        return None
    positions, _ = kept_positions(where)
    source = cast(source, input.dtype) if source.dtype != input.dtype else source
    if source is None or source.size < positions.size:
        return None
    return _combine_rows(device.copy(input), positions, flat(source)[:positions.size],
                         1, 1, UPDATE)


# -- ListDiff, SubAndFilter ----------------------------------------------------
def list_diff(x, y, out_idx=np.dtype(np.int32)):
    """ListDiff: the values of x not in y and their positions (out_idx)."""
    if x.ndim != 1 or y.ndim != 1 or x.dtype != y.dtype or not _real(x):
        return None
    positions, _ = kept_positions(_marked(_not_in, x.size, x, y))
    return gather(x, positions, 0), cast(positions, out_idx)


def sub_and_filter(input_x, max_num, offset):
    """SubAndFilter: input_x - offset where it lies in [0, max_num), and
    the positions kept, both of input_x's (integer) dtype."""
    if input_x.ndim != 1 or input_x.dtype.kind not in "iu" or input_x.dtype == np.uint64:
        return None
    shift = int(offset)
    positions, _ = kept_positions(_marked(_in_range, input_x.size, input_x, shift,
                                          int(max_num)))
    values = device.empty(positions.shape, input_x.dtype)
    index = device.empty(positions.shape, input_x.dtype)
    if positions.size:
        device.launch(_shifted, positions.size, input_x, positions, shift, values, index)
    return values, index


# -- Unique and UniqueConsecutive ----------------------------------------------
def _unique(x):
    """(values in order of first appearance, int64 place of each element
    among them) of the 1-D device array x; None for float16 or complex."""
    if x.ndim != 1 or x.dtype == np.float16 or not _real(x):
        return None
    first = device.empty((x.size,), np.int64)
    keep = device.empty((x.size,), np.bool_)
    if x.size:
        device.launch(_first_seen, x.size, x, first, keep)
    positions, ranks = kept_positions(keep)
    return gather(x, positions, 0), gather(ranks, first, 0)


def unique(input_x):
    """Unique: (values, int32 index)."""
    result = _unique(input_x)
    return None if result is None else (result[0], cast(result[1], np.int32))


def unique_with_pad(x, pad_num):
    """UniqueWithPad: Unique's values padded with pad_num to x's length;
    the index in x's dtype for int32/int64 x, else int32."""
    result = _unique(x)
    if result is None or device.is_device_array(pad_num) and pad_num.size != 1:
        return None
    values, index = result
    if device.is_device_array(pad_num):      # (one element, read back)
        pad_num = device.to_host(pad_num).reshape(())
    pad = filled((x.size - values.size,), np.asarray(pad_num).astype(x.dtype))
    index_dtype = x.dtype if x.dtype.name in ("int32", "int64") else np.int32
    return concat([values, pad]), cast(index, index_dtype)


def _rows_along(input, dim):
    """input with axis ``dim`` moved first and the rest merged: (rows,
    width) as a device array, and the axis; the flat input for None."""
    if dim is None:
        return flat(input), None
    axis = int(dim) % input.ndim
    moved = transpose(input, (axis,) + tuple(a for a in range(input.ndim) if a != axis))
    return moved.reshape((input.shape[axis], -1)), axis


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """UniqueConsecutive: the first of each run of equal values (or of
    equal slices along dim), the run of each, the length of each."""
    if not _real(input) or dim is not None and input.size == 0:
        return None     # (a 0-d input or an empty axis: the reference raises)
    rows, axis = _rows_along(input, dim)
    width = rows.size // rows.shape[0] if rows.shape[0] else 0
    keep = _marked(_run_starts, rows.shape[0], flat(rows), width)
    positions, ranks = kept_positions(keep)
    if axis is None:
        output = gather(rows, positions, 0)
        ranks = ranks.reshape(tuple(input.shape))
    else:
        output = gather(input, positions, axis)
    counts = device.empty(positions.shape, np.int64)
    if positions.size:
        device.launch(_run_lengths, positions.size, positions, rows.shape[0], counts)
    unset = filled((), np.zeros((), np.int64))
    return (output, ranks if return_inverse else unset,
            counts if return_counts else unset)


# -- TrilIndices, TriuIndices --------------------------------------------------
def triangle_indices(lower: bool):
    """The kernel of TrilIndices (``lower``) or TriuIndices: each row's
    columns (how many and the first: host arithmetic on the attributes),
    written by one thread per row."""
    def run(row, col, offset=0, dtype=np.int32):
        row, col, offset = int(row), int(col), int(offset)
        if row < 0 or col < 0:
            return None
        i = np.arange(row, dtype=np.int64)
        if lower:
            firsts, counts = np.zeros(row, np.int64), np.clip(i + offset + 1, 0, col)
        else:
            firsts = np.clip(i + offset, 0, col)
            counts = col - firsts
        starts = np.concatenate([[0], np.cumsum(counts)])
        out = device.empty((2, int(starts[-1])), np.dtype(dtype))
        if out.size:
            device.launch(_triangle, row, device.constant(starts),
                          device.constant(firsts), out)
        return out
    return run


KERNELS = {"NonZero": non_zero, "NonZeroExt": non_zero_ext,
           "MaskedSelect": masked_select, "MaskedScatter": masked_scatter,
           "ListDiff": list_diff, "SubAndFilter": sub_and_filter, "Unique": unique,
           "UniqueWithPad": unique_with_pad, "UniqueConsecutive": unique_consecutive,
           "TrilIndices": triangle_indices(True), "TriuIndices": triangle_indices(False)}
registry.declare_kernels("cuda", KERNELS)


def ptx_kernels() -> list[tuple]:
    """(name, Python function, argument types) of this module's kernels
    for tools/check_ptx.py: float32 and int32 data, int64 positions."""
    f32, i32, i64, b = (numba.float32[::1], numba.int32[::1], numba.int64[::1],
                        numba.boolean[::1])
    n = numba.int64
    return [
        ("count chunks", _count_chunks.py_func, (b, n, i64)),
        ("starts", _starts.py_func, (i64, i64)),
        ("positions", _positions.py_func, (b, n, i64, i64, i64)),
        ("nonzero, float32", _nonzero.py_func, (f32, b)),
        ("not in, int32", _not_in.py_func, (i32, i32, b)),
        ("in range, int32", _in_range.py_func, (i32, n, n, b)),
        ("shifted, int32", _shifted.py_func, (i32, i64, n, i32, i32)),
        ("first seen, float32", _first_seen.py_func, (f32, i64, b)),
        ("run starts, float32", _run_starts.py_func, (f32, n, b)),
        ("run lengths", _run_lengths.py_func, (i64, n, i64)),
        ("coordinates", _coordinates.py_func, (i64, i64, i64, n, n)),
        ("triangle, int32", _triangle.py_func, (i64, i64, numba.int32[:, ::1])),
    ]
