"""The ``cuda`` kernels of the gathers and scatters by index tuples and
along an axis: GatherD, GatherNd, EmbeddingLookup, ScatterNd, the
ScatterNd{Add,Sub,Mul,Div,Max,Min,Update}, TensorScatter* and Scatter*
families, IndexAdd, InplaceIndexAdd, IndexFill, the element scatters
along an axis (Scatter, TensorScatterElements, ScatterAddWithAxis,
InplaceScatterSrc), and the copies with rows written (IndexPut,
InplaceUpdateV2, UpdateCache, InplaceCopy), declared in :data:`KERNELS`.

Everything addresses *rows*: a tensor of shape (outer, length, width)
whose middle axis is indexed (the leading ``depth`` axes of an ND index
tuple merged into one, or the axis of IndexAdd / IndexFill).
:func:`index_rows` turns each index tuple into its row number on the
device and flags one out of range; the flag is read back and the kernel
declines, so the reference raises its error naming it.

One scatter kernel serves every combine op (the reduction codes of the
CPU kernels, ops/_kernels/index.py, plus DIV): each thread owns one
(outer, column) pair and walks the index tuples in order, so repeated
indices combine exactly as the reference's ``ufunc.at`` (in order; the
last update wins for UPDATE) without atomics. The element scatters do the
same along their axis: a thread per line of the index, walked in order
(only entries of one line can land on one element).
"""
from __future__ import annotations

import math

import numba
import numpy as np

from refinfer import registry
from refinfer.ops._kernels.index import ADD, MAX, MIN, MUL, SUB, UPDATE

from . import device
from .device import cuda, device_function
from .fill import filled
from .layout import contiguous_strides, flat, offset
from .index import broadcast_to, cast, concat, slice_
from .movement import axis_of

DIV = 6     # after the CPU kernels' codes (they leave Div to NumPy)


# -- the kernels ---------------------------------------------------------------
@device.jit
def index_rows(indices, dims, strides, depth, wrap, rows, bad):
    """rows[m] = the row of index tuple m (indices viewed (count, depth),
    each entry into the axis of length dims[k], row strides ``strides``);
    negative entries count from the end where ``wrap``; bad[0] = 1 where
    one lies outside its axis."""
    for m in range(cuda.grid(1), rows.size, cuda.gridsize(1)):
        row = 0
        for k in range(depth):
            at = np.int64(indices[m * depth + k])
            at = at + dims[k] if wrap and at < 0 else at
            if at < 0 or at >= dims[k]:
                bad[0] = 1
                at = 0
            row += at * strides[k]
        rows[m] = row


@device_function
def combine(code, old, new):
    """``old`` combined with ``new`` by the reduction ``code``; max and min
    propagate NaN as np.maximum and np.minimum."""
    if code == ADD:
        return old + new
    if code == SUB:
        return old - new
    if code == MUL:
        return old * new
    if code == DIV:
        return old / new
    if code == MAX:
        return old if old != old or old >= new else new
    if code == MIN:
        return old if old != old or old <= new else new
    return new


@device.jit
def scatter_rows(out, rows, updates, outer, length, width, dense, code):
    """out (outer, length, width)[o, rows[m], j] combined with updates
    (outer, count, width)[o, m, j] for m in order (``dense`` 0: the one
    element updates[0] everywhere)."""
    count = rows.size
    for i in range(cuda.grid(1), outer * width, cuda.gridsize(1)):
        o, j = i // width, i % width
        for m in range(count):
            at = (o * length + rows[m]) * width + j
            out[at] = combine(code, out[at], updates[((o * count + m) * width + j) * dense])


@device.jit
def scatter_lines(out, index, src, dims, strides, step, length, count, inner, code,
                  wrap, bad):
    """out combined with src at index along an axis, for every line of
    index (index and src viewed (outer, count, inner), the axis in the
    middle) in order along it: ``dims`` is index's shape with the axis 1,
    ``strides`` out's element strides with the axis 0 (the line's place
    in out), ``step`` out's stride along the axis; an index is negative
    from the end where ``wrap``; bad[0] = 1 where one lies outside
    [-length, length) ([0, length) without ``wrap``)."""
    for line in range(cuda.grid(1), index.size // count, cuda.gridsize(1)):
        base = offset(line, dims, strides)
        o, i = line // inner, line % inner
        for k in range(count):
            at = (o * count + k) * inner + i
            coordinate = np.int64(index[at])
            coordinate = coordinate + length if wrap and coordinate < 0 else coordinate
            if coordinate < 0 or coordinate >= length:
                bad[0] = 1
            else:
                place = base + coordinate * step
                out[place] = combine(code, out[place], src[at])


@device.jit
def write_runs(out, ids, updates, run, limit, bad):
    """out[ids[m] * run + j] = updates[m * run + j] for the ids in [0, limit),
    m in order (a thread per j < run); bad[0] = 1 where a run reaches past
    out's end."""
    for j in range(cuda.grid(1), run, cuda.gridsize(1)):
        for m in range(ids.size):
            at = np.int64(ids[m])
            if 0 <= at < limit:
                if (at + 1) * run > out.size:
                    bad[0] = 1
                else:
                    out[at * run + j] = updates[m * run + j]


@device.jit
def gather_rows(x, rows, out, width):
    """out (count, width)[m, j] = x (rows, width)[rows[m], j], 0 where
    rows[m] < 0."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        row = rows[i // width]
        out[i] = x[row * width + i % width] if row >= 0 else 0


@device.jit
def shifted_rows(indices, shift, length, rows):
    """rows[m] = indices[m] - shift where that lies in [0, length), else -1
    (EmbeddingLookup's rows of zeros)."""
    for m in range(cuda.grid(1), rows.size, cuda.gridsize(1)):
        row = np.int64(indices[m]) - shift
        rows[m] = row if 0 <= row < length else -1


@device.jit
def gather_along(x, index, out, dims, strides, axis, length, bad):
    """out[p] = x[p with its ``axis`` coordinate index[p]] (negative from
    the end), out and index of shape ``dims``, x read with ``strides``;
    bad[0] = 1 where an index lies outside [-length, length)."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        at, rest = 0, i
        for d in range(dims.size - 1, -1, -1):
            coordinate = rest % dims[d]
            if d == axis:
                coordinate = np.int64(index[i])
                coordinate = coordinate + length if coordinate < 0 else coordinate
                if coordinate < 0 or coordinate >= length:
                    bad[0] = 1
                    coordinate = 0
            at += coordinate * strides[d]
            rest //= dims[d]
        out[i] = x[at]


def ptx_kernels() -> list[tuple]:
    """(name, Python function, argument types) of this module's kernels
    for tools/check_ptx.py: float32 data, int64 indices and geometry."""
    f32, i64, i8, n = numba.float32[::1], numba.int64[::1], numba.int8[::1], numba.int64
    return [
        ("index rows", index_rows.py_func, (i64, i64, i64, n, numba.boolean, i64, i8)),
        ("scatter rows", scatter_rows.py_func, (f32, i64, f32, n, n, n, n, n)),
        ("scatter lines", scatter_lines.py_func, (f32, i64, f32, i64, i64, n, n, n, n,
                                                  n, numba.boolean, i8)),
        ("write runs", write_runs.py_func, (f32, i64, f32, n, n, i8)),
        ("gather rows", gather_rows.py_func, (f32, i64, f32, n)),
        ("shifted rows", shifted_rows.py_func, (i64, n, n, i64)),
        ("gather along", gather_along.py_func, (f32, i64, f32, i64, i64, n, n, i8)),
    ]


# -- rows ----------------------------------------------------------------------
def _is_index(indices) -> bool:
    """An integer device array."""
    return device.is_device_array(indices) and np.dtype(indices.dtype).kind in "iu"


def _rows(indices, shape: tuple, wrap: bool = False):
    """The row numbers (int64 device array) of the index tuples along the
    last axis of ``indices`` into the leading axes of ``shape``; None where
    one is out of range (negative ones too unless ``wrap``)."""
    depth = indices.shape[indices.ndim - 1]
    rows = device.empty(indices.size // depth if depth else
                        math.prod(indices.shape[:indices.ndim - 1]), np.int64)
    if rows.size:
        bad = device.zeros(1, np.int8)
        device.launch(index_rows, rows.size, flat(indices),
                      device.constant(shape[:depth] or (1,)),
                      device.constant(contiguous_strides(shape[:depth]) or (0,)),
                      depth, wrap, rows, bad)
        if device.to_host(bad)[0]:
            return None
    return rows


def _combine_rows(out, rows, updates, outer: int, width: int, code: int):
    """out viewed (outer, length, width) with updates combined in at
    ``rows`` (updates of one element: it everywhere)."""
    if rows.size and outer * width:
        device.launch(scatter_rows, outer * width, flat(out), rows, flat(updates),
                      outer, out.size // (outer * width), width, int(updates.size != 1),
                      code)
    return out


# -- scatters by index tuples ----------------------------------------------------
def _accepts(code: int, dtype) -> bool:
    """Whether the combine op runs on ``dtype`` here: bool only assigns
    (the references' or is not a sum on the device), Div only divides
    floats."""
    kind = np.dtype(dtype).kind
    return kind in "iuf" if code not in (UPDATE, DIV) else kind == "f" or code == UPDATE


def _scatter_nd(target, indices, updates, code: int):
    """target (a fresh device array) with updates combined in at the index
    tuples of indices; None where the reference raises or casts."""
    shape = tuple(target.shape)
    if not _is_index(indices) or indices.ndim == 0 \
            or indices.shape[indices.ndim - 1] > len(shape) \
            or updates.dtype != target.dtype or not _accepts(code, target.dtype):
        return None
    depth = indices.shape[indices.ndim - 1]
    if tuple(updates.shape) != tuple(indices.shape[:indices.ndim - 1]) + shape[depth:]:
        return None
    rows = _rows(indices, shape)
    if rows is None:
        return None
    return _combine_rows(target, rows, updates, 1, math.prod(shape[depth:]), code)


def tensor_scatter(code: int):
    """The kernel of TensorScatter* / ScatterNd* with ``code``: a copy of
    input_x with updates combined in."""
    def run(input_x, indices, updates, use_locking=False):
        return _scatter_nd(device.copy(input_x), indices, updates, code)
    return run


def row_scatter(code: int):
    """The kernel of Scatter{Add,...}: indices name rows of input_x (the ND
    form with a last axis of one)."""
    def run(input_x, indices, updates, use_locking=False):
        if not _is_index(indices):
            return None
        rows = indices.reshape(tuple(indices.shape) + (1,))
        return _scatter_nd(device.copy(input_x), rows, updates, code)
    return run


def scatter_nd(indices, updates, shape):
    """ScatterNd: updates summed into zeros of ``shape`` (bool, the
    reference's logical or, declines)."""
    if updates.dtype == np.bool_:
        return None
    target = filled(tuple(int(n) for n in shape), np.zeros((), updates.dtype))
    return _scatter_nd(target, indices, updates, ADD)


# -- along an axis ---------------------------------------------------------------
def index_add(input_x, indices, input_y, axis, use_lock=True, check_index_bound=True):
    """IndexAdd: slices of input_y added at 1-D indices in [0, length)."""
    dim = axis_of(input_x, axis)
    if dim is None or not _is_index(indices) or indices.ndim > 1 \
            or input_y.dtype != input_x.dtype or not _accepts(ADD, input_x.dtype):
        return None
    shape = tuple(input_x.shape)
    if tuple(input_y.shape) != shape[:dim] + (indices.size,) + shape[dim + 1:]:
        return None
    rows = _rows(indices.reshape((indices.size, 1)), (shape[dim],))
    if rows is None:
        return None
    return _combine_rows(device.copy(input_x), rows, input_y, math.prod(shape[:dim]),
                         math.prod(shape[dim + 1:]), ADD)


def inplace_index_add(var, indices, updates, axis):
    """InplaceIndexAdd: IndexAdd's kernel (a new value; the plan makes
    later reads of var see it)."""
    return index_add(var, indices, updates, axis)


REDUCES = {"NONE": UPDATE, "ADD": ADD, "MULTIPLY": MUL}


def scatter_along(input, dim, index, src, reduce="NONE"):
    """Scatter / TensorScatterElements: src combined into a copy of input
    at index along dim (index of input's rank, no longer off dim; src of
    index's shape), each line of index in order."""
    axis, code = axis_of(input, dim), REDUCES.get(reduce)
    if axis is None or code is None or not _is_index(index) or index.ndim != input.ndim \
            or tuple(src.shape) != tuple(index.shape) or src.dtype != input.dtype \
            or not _accepts(code, input.dtype) \
            or any(index.shape[a] > input.shape[a] for a in range(input.ndim) if a != axis):
        return None
    return scatter_into(device.copy(input), axis, index, src, code)


def scatter_into(out, axis: int, index, src, code: int, wrap: bool = True):
    """out (a fresh device array) with src combined in at index along
    ``axis`` (index of out's rank, no longer off the axis; src of its
    shape), each line of index in order; an index is negative from the
    end where ``wrap``; None where one lies outside the axis (a flag read
    back)."""
    count = index.shape[axis]
    if index.size == 0:
        return out
    strides = list(contiguous_strides(tuple(out.shape)))
    step, strides[axis] = strides[axis], 0
    bad = device.zeros(1, np.int8)
    device.launch(scatter_lines, index.size // count, flat(out), flat(index), flat(src),
                  device.constant(index.shape[:axis] + (1,) + index.shape[axis + 1:]),
                  device.constant(strides), step, out.shape[axis], count,
                  math.prod(index.shape[axis + 1:]), code, wrap, bad)
    return None if device.to_host(bad)[0] else out


def scatter_add_with_axis(input_x, indices, updates, axis=0):
    """ScatterAddWithAxis: Scatter with reduce "ADD"."""
    return scatter_along(input_x, axis, indices, updates, "ADD")


def tensor_scatter_elements(data, indices, updates, axis=0, reduce="NONE"):
    """TensorScatterElements: Scatter with its arguments in this order."""
    return scatter_along(data, axis, indices, updates, reduce)


def index_fill(x, dim, index, value):
    """IndexFill: the slices at index (negative from the end) set to value,
    cast to x's dtype as NumPy's assignment does."""
    axis = 0 if x.ndim == 0 and int(dim) == 0 else axis_of(x, dim)
    if axis is None or not _is_index(index) or device.is_device_array(value):
        return None
    shape = tuple(x.shape) or (1,)
    rows = _rows(index.reshape((index.size, 1)), (shape[axis],), wrap=True)
    if rows is None:
        return None
    fill = device.to_device(np.asarray(value).astype(x.dtype).reshape(1))
    out = device.copy(x)
    _combine_rows(out.reshape(shape), rows, fill, math.prod(shape[:axis]),
                  math.prod(shape[axis + 1:]), UPDATE)
    return out


# -- copies with rows written: IndexPut, InplaceUpdateV2, UpdateCache, ... -----
def _as_dtype(x, dtype):
    """x in ``dtype`` (the references' casts), x itself where it is."""
    return x if x.dtype == np.dtype(dtype) else cast(x, dtype)


def index_put(x1, x2, indices, accumulate=0):
    """IndexPut: x2 (cast to x1's dtype, broadcast over the points)
    written, or added where ``accumulate``, at the points of 1 to rank
    1-D index tensors of one length (or 1); repeats in order."""
    indices = list(indices) if isinstance(indices, (tuple, list)) else [indices]
    if not 0 < len(indices) <= x1.ndim or not all(map(_is_index, indices)):
        return None
    code = ADD if int(accumulate) else UPDATE
    try:
        count = np.broadcast_shapes(*((i.size,) for i in indices))[0]
    except ValueError:
        return None
    shape, depth = tuple(x1.shape), len(indices)
    columns = [cast(broadcast_to(i.reshape((i.size, 1)), (count, 1)), np.int64)
               for i in indices]
    updates = _as_dtype(x2, x1.dtype)
    updates = None if updates is None else broadcast_to(updates,
                                                        (count,) + shape[depth:])
    if updates is None or not _accepts(code, x1.dtype) \
            or any(c is None for c in columns):
        return None
    if count == 0:
        return device.copy(x1)
    rows = _rows(concat(columns, 1), shape, wrap=True)
    if rows is None:
        return None
    return _combine_rows(device.copy(x1), rows, updates, 1, math.prod(shape[depth:]),
                         code)


def inplace_update_v2(x, indices, v):
    """InplaceUpdateV2: the rows of x at the 1-D indices (negative from the
    end) replaced by v's, cast to x's dtype; the last repeat wins."""
    if not _is_index(indices) or indices.ndim != 1 or x.ndim == 0 \
            or tuple(v.shape) != tuple(indices.shape) + tuple(x.shape[1:]):
        return None
    rows = _rows(indices.reshape((indices.size, 1)), (x.shape[0],), wrap=True)
    v = _as_dtype(v, x.dtype)
    if rows is None or v is None:
        return None
    return _combine_rows(device.copy(x), rows, v, 1, math.prod(x.shape[1:]), UPDATE)


def update_cache(input_x, indices, updates, max_num):
    """UpdateCache: runs of updates.shape[1] elements written at id * run
    of input_x (flat) for the ids in [0, max_num), in order; an id
    reaching past input_x's end sets a flag and the kernel declines."""
    if updates.ndim < 2 or not _is_index(indices):
        return None
    run = updates.shape[1]
    updates = _as_dtype(updates, input_x.dtype)
    if updates is None or indices.size * run > updates.size:
        return None
    out = device.copy(input_x)
    if run and indices.size:
        bad = device.zeros(1, np.int8)
        device.launch(write_runs, run, flat(out), flat(indices), flat(updates), run,
                      int(max_num), bad)
        if device.to_host(bad)[0]:
            return None
    return out


def inplace_scatter_src(input, dim, index, src):
    """InplaceScatterSrc: Scatter of src (its leading part of index's shape,
    cast to input's dtype) at index along dim."""
    if not _is_index(index) or index.ndim != input.ndim or src.ndim != input.ndim \
            or any(n > m for n, m in zip(index.shape, src.shape)):
        return None
    part = slice_(src, (0,) * src.ndim, tuple(index.shape))
    part = None if part is None else _as_dtype(part, input.dtype)
    return None if part is None else scatter_along(input, dim, index, part)


def inplace_copy(input, src, non_blocking=False):
    """InplaceCopy: src cast to input's dtype, broadcast to its shape."""
    wide = broadcast_to(src, tuple(input.shape))
    return None if wide is None else _as_dtype(wide, input.dtype)


# -- gathers ---------------------------------------------------------------------
def _gathered(x, rows, shape: tuple):
    """The rows of x (viewed (n, width), width the size of one row of
    ``shape``'s trailing axes) at ``rows``, 0 where a row is -1."""
    out = device.empty(shape, x.dtype)
    if out.size:
        device.launch(gather_rows, out.size, flat(x), rows, flat(out),
                      out.size // rows.size)
    return out


def gather_nd(input_x, indices):
    """GatherNd: the slices at the index tuples (no negative entries)."""
    if not _is_index(indices) or indices.ndim == 0 \
            or indices.shape[indices.ndim - 1] > input_x.ndim:
        return None
    depth = indices.shape[indices.ndim - 1]
    shape = tuple(input_x.shape)
    rows = _rows(indices, shape)
    if rows is None:
        return None
    out_shape = tuple(indices.shape[:indices.ndim - 1]) + shape[depth:]
    return _gathered(input_x, rows, out_shape) if rows.size else \
        device.empty(out_shape, input_x.dtype)


def embedding_lookup(input_params, input_indices, offset):
    """EmbeddingLookup: rows at input_indices - offset, zeros outside."""
    if not _is_index(input_indices) or input_params.ndim == 0:
        return None
    shape = tuple(input_indices.shape) + tuple(input_params.shape[1:])
    if input_indices.size == 0:
        return device.empty(shape, input_params.dtype)
    rows = device.empty(input_indices.size, np.int64)
    device.launch(shifted_rows, rows.size, flat(input_indices), int(offset),
                  input_params.shape[0], rows)
    return _gathered(input_params, rows, shape)


def gather_d(x, dim, index):
    """GatherD: x read along dim at index, elsewhere at the position."""
    axis = axis_of(x, dim)
    if axis is None or not _is_index(index) or index.ndim != x.ndim \
            or any(index.shape[a] > x.shape[a] for a in range(x.ndim) if a != axis):
        return None
    out = device.empty(tuple(index.shape), x.dtype)
    if out.size:
        bad = device.zeros(1, np.int8)
        device.launch(gather_along, out.size, flat(x), flat(index), flat(out),
                      device.constant(tuple(index.shape)),
                      device.constant(contiguous_strides(tuple(x.shape))), axis,
                      x.shape[axis], bad)
        if device.to_host(bad)[0]:
            return None
    return out


CODES = {"Add": ADD, "Sub": SUB, "Mul": MUL, "Div": DIV, "Max": MAX, "Min": MIN,
         "Update": UPDATE}
KERNELS = {"GatherD": gather_d, "GatherNd": gather_nd,
           "EmbeddingLookup": embedding_lookup, "ScatterNd": scatter_nd,
           **{f"ScatterNd{kind}": tensor_scatter(code) for kind, code in CODES.items()},
           **{f"TensorScatter{kind}": tensor_scatter(code)
              for kind, code in CODES.items()},
           **{f"Scatter{kind}": row_scatter(code) for kind, code in CODES.items()},
           "IndexAdd": index_add, "InplaceIndexAdd": inplace_index_add,
           "IndexFill": index_fill, "Scatter": scatter_along,
           "IndexPut": index_put, "InplaceUpdateV2": inplace_update_v2,
           "UpdateCache": update_cache, "InplaceScatterSrc": inplace_scatter_src,
           "InplaceCopy": inplace_copy,
           "TensorScatterElements": tensor_scatter_elements,
           "ScatterAddWithAxis": scatter_add_with_axis}
registry.declare_kernels("cuda", KERNELS)
