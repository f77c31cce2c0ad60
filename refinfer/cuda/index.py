"""The ``cuda`` kernels of the data movement ops: Transpose, Slice,
StridedSlice, Split, BroadcastTo / Expand, Tile, ReverseV2, Concat, Stack,
Pad, Gather, IndexSelect, OneHot, Select, Tril and Cast, declared in
:data:`KERNELS`.

Most are one gather: out[i] = x[start + offset(i, dims, strides)], the
strides and start those of a NumPy view of x (a transpose, a slice with
any steps, a reversal with negative ones, a broadcast with zero strides,
a tile as a broadcast of x with a unit axis before each axis). The view
is taken of a *probe*: an array of x's shape with one byte per element,
never written or read, whose view's strides and data pointer say where
every element lies (:func:`view_geometry`). StridedSlice and Split take
their view from the references themselves, so the masks and checks have
one implementation.
Concat writes each input into its place of the output (the same offsets,
the other way); Pad gathers with a bounds check and writes zeros outside.

Arguments the references reject (bad ranges, ranks, axes) decline here
(None), and the reference then raises its error. Gather checks its
indices on the device and declines when one is out of range (one flag
copied back per call: the price of the reference's error); with batch
axes it gathers once per batch entry, as the reference.
"""
from __future__ import annotations

import math

import numba
import numpy as np

from refinfer import registry
from refinfer.ops._ref.indexing import gather_axes

from . import device
from .device import cuda, device_function, dmath
from .layout import broadcast_strides, contiguous_strides, flat, offset

INDEX_DTYPES = frozenset(np.dtype(name) for name in ("int32", "int64"))


# -- the kernels ---------------------------------------------------------------
@device.jit
def gather_view(x, out, dims, strides, start):
    """out[i] = x[start + offset(i, dims, strides)]: a view of x, copied."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = x[start + offset(i, dims, strides)]


@device.jit
def scatter_view(x, out, dims, strides, start):
    """out[start + offset(i, dims, strides)] = x[i]: x written into a view
    of out (a Concat input into its place)."""
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[start + offset(i, dims, strides)] = x[i]


@device_function
def _padded_offset(i, dims, before, sizes, strides):
    """The offset in x of output element i of a padding, -1 in the
    padding: offset() with a bounds check per axis."""
    at = 0
    for d in range(dims.size - 1, -1, -1):
        p = i % dims[d] - before[d]
        if p < 0 or p >= sizes[d]:
            return -1
        at += p * strides[d]
        i //= dims[d]
    return at


@device.jit
def pad_zeros(x, out, dims, before, sizes, strides):
    """out[i] = x at its place, 0 in the padding."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        at = _padded_offset(i, dims, before, sizes, strides)
        out[i] = x[at] if at >= 0 else 0


@device.jit
def take(x, indices, out, length, inner, bad):
    """out[o, j, i] = x[o, indices[j], i] (negative indices from the end)
    for x viewed (outer, length, inner); bad[0] = 1 where an index is
    outside [-length, length)."""
    count = indices.size
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        o, rest = i // (count * inner), i % (count * inner)
        k = indices[rest // inner]
        k = k + length if k < 0 else k
        if k < 0 or k >= length:
            bad[0] = 1
            out[i] = 0
        else:
            out[i] = x[(o * length + k) * inner + rest % inner]


@device.jit
def one_hot_kernel(indices, on, off, out, depth, inner):
    """out (outer, depth, inner) = on[0] where indices (outer, inner)
    equals the class, else off[0]."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        o, c, r = i // (depth * inner), (i // inner) % depth, i % inner
        out[i] = on[0] if indices[o * inner + r] == c else off[0]


@device.jit
def select_kernel(condition, a, b, out, dims, c_strides, a_strides, b_strides):
    """out[i] = a[i] where condition[i] (nonzero) else b[i], all three
    broadcast to out through their strides."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        if condition[offset(i, dims, c_strides)] != 0:
            out[i] = a[offset(i, dims, a_strides)]
        else:
            out[i] = b[offset(i, dims, b_strides)]


@device.jit
def lower_triangle(x, out, rows, cols, diagonal):
    """out = x where column - row <= diagonal in the last two axes
    (rows x cols), else 0: Tril."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = x[i] if i % cols - (i // cols) % rows <= diagonal else 0


@device.jit
def convert(x, out):
    """out[i] = x[i] converted by assignment (C's conversions: float
    rounding, integer wrapping; what NumPy's astype does)."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = x[i]


@device.jit
def to_bool(x, out):
    """out[i] = x[i] != 0 (NaN is True)."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = x[i] != 0


@device.jit
def float_to_int(x, out, limit, lowest, bits, signed):
    """MindSpore's float -> integer conversion (ops/_ref/common.float_to_int):
    truncate toward zero into the intermediate integer (int32 or int64,
    whose range is [-limit, limit)), NaN, +-inf and values outside it
    giving ``lowest``, its minimum; then wrap into out's ``bits`` (64:
    none), two's complement where ``signed``."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        t = dmath.trunc(x[i] + 0.0)
        wide = np.int64(t) if -limit <= t < limit else lowest
        if bits < 64:       # the wrap, explicit: C's would be the same
            wide &= (1 << bits) - 1
            if signed and wide >= 1 << (bits - 1):
                wide -= 1 << bits
        out[i] = wide


def ptx_kernels() -> list[tuple]:
    """(name, Python function, argument types) of this module's kernels
    for tools/check_ptx.py: float32 data, int64 indices, and the casts
    between float32, int32 and bool."""
    f32, i32, i64 = numba.float32[::1], numba.int32[::1], numba.int64[::1]
    n = numba.int64
    return [
        ("gather view", gather_view.py_func, (f32, f32, i64, i64, n)),
        ("scatter view", scatter_view.py_func, (f32, f32, i64, i64, n)),
        ("pad zeros", pad_zeros.py_func, (f32, f32, i64, i64, i64, i64)),
        ("take", take.py_func, (f32, i64, f32, n, n, numba.int8[::1])),
        ("one hot", one_hot_kernel.py_func, (i64, f32, f32, f32, n, n)),
        ("select", select_kernel.py_func, (numba.boolean[::1], f32, f32, f32, i64, i64,
                                           i64, i64)),
        ("lower triangle", lower_triangle.py_func, (f32, f32, n, n, n)),
        ("cast int32 -> float32", convert.py_func, (i32, f32)),
        ("cast float32 -> bool", to_bool.py_func, (f32, numba.boolean[::1])),
        ("cast float32 -> int32", float_to_int.py_func,
         (f32, i32, numba.float64, n, n, numba.boolean)),
    ]


# -- views ---------------------------------------------------------------------
def probe(shape: tuple) -> np.ndarray:
    """An array of ``shape`` with one byte per element, never written:
    only its views' strides and data pointers are read, so its pages are
    never touched (np.empty reserves them, the OS maps them on first use)."""
    return np.empty(math.prod(shape), np.uint8).reshape(shape)


def view_geometry(base: np.ndarray, view) -> tuple | None:
    """(shape, element strides, start) of ``view``, a view of the probe
    ``base``; None where it is not one (a copy, or a scalar: the geometry
    is lost)."""
    if not isinstance(view, np.ndarray) \
            or view.size and not np.may_share_memory(view, base):
        return None
    start = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return tuple(view.shape), tuple(view.strides), start


def copy_view(x, geometry):
    """A C-contiguous device copy of the view of x with ``geometry``."""
    if geometry is None:
        return None
    shape, strides, start = geometry
    out = device.empty(shape, x.dtype)
    if out.size:
        device.launch(gather_view, out.size, flat(x), flat(out),
                      device.constant(shape or (1,)), device.constant(strides or (0,)),
                      start)
    return out


def viewed(x, make_view):
    """x copied through ``make_view`` (probe -> NumPy view); None where
    NumPy refuses it (the reference raises its error)."""
    base = probe(tuple(x.shape))
    try:
        return copy_view(x, view_geometry(base, make_view(base)))
    except (ValueError, IndexError, TypeError):
        return None


def transpose(input, dims):
    """Transpose: dims naming every axis once."""
    if len(dims) != input.ndim:
        return None
    return viewed(input, lambda v: v.transpose(tuple(dims)))


def reverse_v2(input, axis):
    """ReverseV2: distinct axes, reversed (negative strides)."""
    if len({a % max(input.ndim, 1) for a in axis}) != len(axis):
        return None
    return viewed(input, lambda v: np.flip(v, tuple(axis)))


def slice_(input, begin, size):
    """Slice: size -1 to the end; ranges checked as the reference."""
    if not len(begin) == len(size) == input.ndim:
        return None
    index = []
    for start, length, dim in zip(begin, size, input.shape):
        stop = dim if length == -1 else start + length
        if not 0 <= start <= stop <= dim:
            return None
        index.append(slice(start, stop))
    return viewed(input, lambda v: v[tuple(index)])


def reference_view(op: str):
    """The kernel of an op whose reference returns views of its input
    (StridedSlice; Split, a tuple of them): the reference run on a probe
    gives the views' geometry."""
    reference = registry.get_op(op).reference

    def run(input, *args):
        base = probe(tuple(input.shape))
        try:
            views = reference(base, *args)
        except (ValueError, IndexError, TypeError):
            return None
        if isinstance(views, tuple):
            parts = [copy_view(input, view_geometry(base, v)) for v in views]
            return None if any(p is None for p in parts) else tuple(parts)
        return copy_view(input, view_geometry(base, views))
    return run


def broadcast_to(input, shape):
    """BroadcastTo / Expand: -1 keeps an input axis."""
    extra = len(shape) - input.ndim
    if extra < 0 or any(n == -1 for n in shape[:extra]):
        return None
    target = tuple(input.shape[i - extra] if n == -1 else n
                   for i, n in enumerate(shape))
    return viewed(input, lambda v: np.broadcast_to(v, target))


def tile(input, dims):
    """Tile as np.tile: a unit axis before each axis of x broadcast to the
    repeat count, then merged with it."""
    dims = tuple(int(d) for d in dims)
    if any(d < 0 for d in dims):
        return None
    rank = max(len(dims), input.ndim)
    shape = (1,) * (rank - input.ndim) + tuple(input.shape)
    reps = (1,) * (rank - len(dims)) + dims
    y = viewed(input, lambda v: np.broadcast_to(
        v.reshape(tuple(n for s in shape for n in (1, s))),
        tuple(n for r, s in zip(reps, shape) for n in (r, s))))
    return None if y is None else y.reshape(tuple(r * s for r, s in zip(reps, shape)))


# -- joins and padding ---------------------------------------------------------
def _write_parts(parts, axis: int, out) -> None:
    """Each part into its place along ``axis`` of out."""
    strides, start = contiguous_strides(tuple(out.shape)), 0
    for part in parts:
        if part.size:
            device.launch(scatter_view, part.size, flat(part), flat(out),
                          device.constant(tuple(part.shape)),
                          device.constant(strides), start * strides[axis])
        start += part.shape[axis]


def concat(tensors, axis=0):
    """Concat: equal dtypes and shapes but along ``axis``."""
    tensors = list(tensors)
    if not tensors or tensors[0].ndim == 0:
        return None
    first, rank = tensors[0], tensors[0].ndim
    if not -rank <= axis < rank:
        return None
    axis %= rank
    if any(t.dtype != first.dtype or t.ndim != rank or any(
            t.shape[a] != first.shape[a] for a in range(rank) if a != axis)
            for t in tensors):
        return None
    shape = tuple(first.shape)
    out = device.empty(shape[:axis] + (sum(t.shape[axis] for t in tensors),)
                       + shape[axis + 1:], first.dtype)
    _write_parts(tensors, axis, out)
    return out


def stack(x, axis=0):
    """Stack / StackExt: Concat of the tensors with a unit axis inserted."""
    tensors = list(x)
    if not tensors:
        return None
    rank = tensors[0].ndim + 1
    if not -rank <= axis < rank or any(tuple(t.shape) != tuple(tensors[0].shape)
                                       for t in tensors):
        return None
    axis %= rank
    return concat([t.reshape(tuple(t.shape[:axis]) + (1,) + tuple(t.shape[axis:]))
                   for t in tensors], axis)


def pad(x, paddings):
    """Pad: zeros around x, one non-negative (before, after) pair per axis."""
    pairs = [tuple(int(v) for v in pair) for pair in paddings]
    if len(pairs) != x.ndim or any(len(p) != 2 or min(p) < 0 for p in pairs):
        return None
    out = device.empty(tuple(n + b + a for n, (b, a) in zip(x.shape, pairs)), x.dtype)
    if out.size:
        device.launch(pad_zeros, out.size, flat(x), flat(out),
                      device.constant(tuple(out.shape) or (1,)),
                      device.constant([b for b, _ in pairs] or [0]),
                      device.constant(tuple(x.shape) or (1,)),
                      device.constant(contiguous_strides(tuple(x.shape)) or (0,)))
    return out


# -- indexing, choice, conversion ----------------------------------------------
def gather(input_params, input_indices, axis, batch_dims=0):
    """Gather; with batch axes one plain gather per batch entry, as the
    reference. Arguments the reference refuses (checked by its own
    gather_axes on stand-ins) and an index out of range decline (the
    reference raises the error naming it)."""
    try:
        axis, batch_dims = gather_axes(device.stand_in(input_params),
                                       device.stand_in(input_indices), axis, batch_dims)
    except (TypeError, ValueError):
        return None
    if not batch_dims:
        return _take(input_params, input_indices, axis)
    batch = tuple(input_params.shape[:batch_dims])
    if tuple(input_indices.shape[:batch_dims]) != batch:
        return None
    entries, shape = math.prod(batch), tuple(input_params.shape)
    params = input_params.reshape((entries,) + shape[batch_dims:])
    indices = input_indices.reshape((entries,) + tuple(input_indices.shape[batch_dims:]))
    out = device.empty(batch + shape[batch_dims:axis]
                       + tuple(input_indices.shape[batch_dims:]) + shape[axis + 1:],
                       input_params.dtype)
    rows = out.reshape((entries, out.size // entries if entries else 0))
    for b in range(entries):
        part = _take(params[b], indices[b], axis - batch_dims)
        if part is None:
            device.release(out)
            return None
        if part.size:
            rows[b].copy_to_device(part.reshape(part.size), stream=device.stream())
        device.release(part)    # (made here and copied: no one else reads it)
    return out


def _take(params, indices, axis: int):
    """Gather without batch axes (``axis`` counted from the front)."""
    if indices.dtype not in INDEX_DTYPES:
        return None
    shape = tuple(params.shape)
    out = device.empty(shape[:axis] + tuple(indices.shape) + shape[axis + 1:],
                       params.dtype)
    if out.size == 0:
        return out if shape[axis] or indices.size == 0 else None
    bad = device.zeros(1, np.int8)
    device.launch(take, out.size, flat(params), flat(indices), flat(out),
                  shape[axis], math.prod(shape[axis + 1:]), bad)
    return None if device.to_host(bad)[0] else out


def index_select(input, dim, index):
    """IndexSelect: Gather of a 0-d or 1-D index along ``dim``."""
    if index.ndim > 1:
        return None
    return gather(input, index.reshape((index.size,)), dim)


def one_hot(indices, depth, on_value, off_value, axis=-1):
    """OneHot: the class axis at ``axis``; on_value and off_value 0-d
    tensors of one dtype."""
    depth, axis = int(depth), int(axis)
    if depth < 0 or not -1 <= axis <= indices.ndim or indices.dtype.kind not in "iu" \
            or not all(device.is_device_array(v) and v.size == 1
                       for v in (on_value, off_value)) \
            or on_value.dtype != off_value.dtype:
        return None
    at = indices.ndim if axis == -1 else axis
    shape = tuple(indices.shape)
    out = device.empty(shape[:at] + (depth,) + shape[at:], on_value.dtype)
    if out.size:
        device.launch(one_hot_kernel, out.size, flat(indices), flat(on_value),
                      flat(off_value), flat(out), depth, math.prod(shape[at:]))
    return out


def select(condition, input, other):
    """Select: input and other of one dtype, all three broadcast."""
    if not all(device.is_device_array(v) for v in (condition, input, other)) \
            or input.dtype != other.dtype:
        return None
    try:
        shape = np.broadcast_shapes(*(tuple(v.shape) for v in (condition, input, other)))
    except ValueError:
        return None
    out = device.empty(shape, input.dtype)
    if out.size:
        device.launch(select_kernel, out.size, flat(condition), flat(input),
                      flat(other), flat(out), device.constant(shape or (1,)),
                      *(broadcast_strides(tuple(v.shape), shape)
                        for v in (condition, input, other)))
    return out


def tril(input, diagonal=0):
    """Tril / TrilExt: rank >= 2."""
    if input.ndim < 2:
        return None
    out = device.empty(tuple(input.shape), input.dtype)
    if out.size:
        rows, cols = input.shape[input.ndim - 2:]
        device.launch(lower_triangle, out.size, flat(input), flat(out), rows, cols,
                      int(diagonal))
    return out


def cast(input_x, dtype):
    """Cast as the reference (ops/_ref/common.cast): floats to integers
    through MindSpore's rule, to bool as nonzero, the rest by C's
    conversions; complex values and floats to uint64 decline."""
    dtype = np.dtype(dtype)
    source = np.dtype(input_x.dtype)
    if "c" in (source.kind, dtype.kind):
        return None
    out = device.empty(tuple(input_x.shape), dtype)
    if out.size == 0:
        return out
    x, y = flat(input_x), flat(out)
    if dtype == np.bool_:
        device.launch(to_bool, out.size, x, y)
    elif source.kind == "f" and dtype.kind in "iu":
        if dtype == np.uint64:
            return None     # (wraps negative values past int64)
        bits = 32 if dtype.itemsize < 4 or dtype == np.int32 else 64
        device.launch(float_to_int, out.size, x, y, 2.0 ** (bits - 1),
                      np.int64(-2 ** (bits - 1)), 8 * dtype.itemsize,
                      dtype.kind == "i")
    else:
        device.launch(convert, out.size, x, y)
    return out


KERNELS = {"Transpose": transpose, "Slice": slice_,
           "StridedSlice": reference_view("StridedSlice"),
           "Split": reference_view("Split"), "BroadcastTo": broadcast_to,
           "Expand": broadcast_to, "BroadcastToView": broadcast_to,
           "DynamicBroadcastTo": broadcast_to, "Tile": tile, "Concat": concat,
           "Stack": stack, "StackExt": stack, "Pack": stack, "Pad": pad,
           "Gather": gather,
           "OneHot": one_hot, "Select": select, "Cast": cast, "Tril": tril,
           "TrilExt": tril, "ReverseV2": reverse_v2, "IndexSelect": index_select}
registry.declare_kernels("cuda", KERNELS)
