"""Index checks, scatter arithmetic, segment reductions, first-appearance
order and one-hot encoding shared by the gather, scatter, segment, unique and
one-hot ops."""
from __future__ import annotations

import numpy as np

from .common import INTS, require_dtype, require_tensors


def nd_index(indices: np.ndarray, shape, op: str,
             allow_negative: bool = False) -> tuple[np.ndarray, ...]:
    """The last axis of ``indices`` as a tuple of index arrays into the
    first ``indices.shape[-1]`` axes of ``shape`` (GatherNd, ScatterNd,
    TensorScatter*). Out-of-range entries raise, as on MindSpore CPU;
    negative ones too unless ``allow_negative`` (then they wrap)."""
    if indices.dtype.kind not in "iu":
        raise TypeError(f"{op}: indices must be integers, got {indices.dtype}")
    if indices.ndim == 0:
        raise ValueError(f"{op}: indices must have rank >= 1")
    depth = indices.shape[-1]
    if depth > len(shape):
        raise ValueError(f"{op}: indices.shape[-1] = {depth} exceeds the "
                         f"rank of {tuple(shape)}")
    index = []
    for axis in range(depth):
        column = indices[..., axis].astype(np.int64)
        low = -shape[axis] if allow_negative else 0
        if column.size and (column.min() < low or column.max() >= shape[axis]):
            raise ValueError(f"{op}: index out of range for axis {axis} of "
                             f"length {shape[axis]}")
        index.append(column)
    return tuple(index)


def gather_axes(params, indices, axis, batch_dims) -> tuple[int, int]:
    """Gather's axis and batch_dims, negative ones counted from the end,
    once the arguments are checked: tensors, integer indices, an axis of
    params, 0 <= batch_dims <= axis."""
    require_tensors("Gather", input_params=params)
    require_dtype("Gather", "input_indices", indices, INTS)
    given, batch_dims = int(axis), int(batch_dims)
    axis = given + params.ndim if given < 0 else given
    batch_dims += indices.ndim if batch_dims < 0 else 0
    if not 0 <= axis < params.ndim:
        raise ValueError(f"Gather: axis {given} out of range for input_params "
                         f"of rank {params.ndim}")
    if not 0 <= batch_dims <= axis:
        raise ValueError(f"Gather: need 0 <= batch_dims ({batch_dims}) <= "
                         f"axis ({axis})")
    return axis, batch_dims


def select_axis(input, dim, index) -> int:
    """IndexSelect's dim counted from the front, once the arguments are
    checked: tensors, a 0-d or 1-D integer index, a dim of input, entries
    in [-length, length) of that axis."""
    require_tensors("IndexSelect", input=input)
    require_dtype("IndexSelect", "index", index, INTS)
    if index.ndim > 1:
        raise ValueError(f"IndexSelect: index must be 0-d or 1-D, got "
                         f"shape {index.shape}")
    given = int(dim)
    axis = given + input.ndim if given < 0 else given
    if not 0 <= axis < input.ndim:
        raise ValueError(f"IndexSelect: dim {given} out of range for input "
                         f"of rank {input.ndim}")
    check_take("IndexSelect", index, input.shape[axis], axis)
    return axis


def check_rows(indices, weight) -> None:
    """Embedding's indices: an integer tensor of entries in [0, rows) of
    a 2-D table (no negative ones: MindSpore refuses them)."""
    require_tensors("Embedding", weight=weight)
    require_dtype("Embedding", "input", indices, INTS)
    if weight.ndim != 2:
        raise ValueError(f"Embedding: weight must be 2-D (rows, dim), got "
                         f"shape {weight.shape}")
    rows = weight.shape[0]
    flat = indices.reshape(-1)
    bad = (flat < 0) | (flat >= rows)
    if bad.any():
        raise IndexError(f"Embedding: index {flat[bad.argmax()]} out of range "
                         f"[0, {rows}) of weight's rows")


def check_take(op: str, indices: np.ndarray, length: int, axis: int) -> None:
    """Indices into an axis of ``length`` must lie in [-length, length)
    (negative ones count from the end); else an error naming the first
    bad one."""
    flat = indices.reshape(-1)
    bad = (flat < -length) | (flat >= length)
    if bad.any():
        raise IndexError(f"{op}: index {flat[bad.argmax()]} out of range "
                         f"[-{length}, {length}) of axis {axis}")


def check_updates(indices, updates, shape, op: str) -> None:
    """updates.shape must be indices.shape[:-1] + shape[indices.shape[-1]:]."""
    expected = indices.shape[:-1] + tuple(shape[indices.shape[-1]:])
    if updates.shape != expected:
        raise ValueError(f"{op}: updates shape {updates.shape}, expected "
                         f"{expected}")


def scatter(target: np.ndarray, indices: np.ndarray, updates: np.ndarray,
            combine, op: str) -> np.ndarray:
    """A copy of ``target`` with ``updates`` combined in at ``indices``.

    ``combine`` is a NumPy ufunc applied unbuffered (``ufunc.at``), so
    repeated indices accumulate in order; None assigns (the last repeated
    index wins, as MindSpore's CPU kernel).
    """
    index = nd_index(indices, target.shape, op)
    check_updates(indices, updates, target.shape, op)
    out = target.copy()
    updates = updates.astype(target.dtype, copy=False)
    if combine is None:
        out[index] = updates
    else:
        with np.errstate(all="ignore"):
            combine.at(out, index, updates)
    return out


def one_hot(indices: np.ndarray, depth, on_value, off_value, axis) -> np.ndarray:
    """on_value where indices[...] == c, off_value elsewhere, for the
    classes c < depth on a new axis at ``axis`` (OneHot, OneHotExt)."""
    depth, axis = int(depth), int(axis)
    if depth < 0:
        raise ValueError(f"OneHot: depth must be >= 0, got {depth}")
    if not -1 <= axis <= indices.ndim:
        raise ValueError(f"OneHot: axis {axis} out of range for rank "
                         f"{indices.ndim}")
    on, off = np.asarray(on_value), np.asarray(off_value)
    hot = indices[..., None] == np.arange(depth)
    out = np.where(hot, on, off.astype(on.dtype))
    return np.moveaxis(out, -1, axis) if axis != -1 else out


def class_count(tensor: np.ndarray, num_classes) -> int:
    """OneHotExt's depth: num_classes, or max(tensor) + 1 for -1."""
    num_classes = int(num_classes)
    if num_classes == -1:
        return int(tensor.max()) + 1 if tensor.size else 0
    return num_classes


def segment_reduce(name, combine, empty, input_x, segment_ids, num_segments):
    """combine.at over the rows of input_x grouped by segment id, into
    num_segments rows that start at ``empty(dtype)``; negative ids are
    dropped (UnsortedSegment*, Segment*)."""
    require_dtype(name, "segment_ids", segment_ids, INTS)
    ids = np.asarray(segment_ids)
    if input_x.shape[:ids.ndim] != ids.shape:
        raise ValueError(f"{name}: segment_ids shape {ids.shape} must lead input_x's "
                         f"shape {input_x.shape}")
    count = int(num_segments)
    rows = input_x.reshape((-1,) + input_x.shape[ids.ndim:])
    ids = ids.reshape(-1)
    if ids.size and ids.max() >= count:
        raise ValueError(f"{name}: segment id {ids.max()} out of range [0, {count}) of "
                         f"num_segments")
    kept = ids >= 0
    out = np.full((count,) + rows.shape[1:], empty(input_x.dtype), input_x.dtype)
    with np.errstate(over="ignore"):
        combine.at(out, ids[kept], rows[kept])
    return out


def lowest(dtype):
    """The dtype's lowest finite value (an empty maximum's start)."""
    return np.finfo(dtype).min if dtype.kind == "f" else np.iinfo(dtype).min


def highest(dtype):
    """The dtype's largest finite value (an empty minimum's start)."""
    return np.finfo(dtype).max if dtype.kind == "f" else np.iinfo(dtype).max


def scatter_along(op: str, target: np.ndarray, dim, index: np.ndarray,
                  src: np.ndarray, combine) -> np.ndarray:
    """A copy of ``target`` with ``src[i...]`` combined in at position
    ``index[i...]`` of axis ``dim`` and ``i...`` elsewhere (Scatter,
    TensorScatterElements, ScatterAddWithAxis).

    index has target's rank and at most its shape off ``dim``; src has
    index's shape (MindSpore 2.7.1's CPU kernels refuse a larger src, which
    torch allows); indices lie in [-length, length) of ``dim``. ``combine``
    is a ufunc applied unbuffered (repeats accumulate in order); None
    assigns (the last repeat wins).
    """
    require_dtype(op, "index", index, INTS)
    given = int(dim)
    axis = given + target.ndim if given < 0 else given
    if not 0 <= axis < max(target.ndim, 1):
        raise ValueError(f"{op}: dim {given} out of range for rank {target.ndim}")
    if index.ndim != target.ndim or any(
            n > limit for k, (n, limit) in enumerate(zip(index.shape, target.shape))
            if k != axis):
        raise ValueError(f"{op}: index shape {index.shape} must have the rank of "
                         f"input {target.shape} and fit it off axis {axis}")
    src = np.asarray(src)
    if src.shape != index.shape:
        raise ValueError(f"{op}: updates shape {src.shape} must be index's shape "
                         f"{index.shape}")
    length = target.shape[axis] if target.ndim else 1
    check_take(op, index, length, axis)
    where = list(np.indices(index.shape, sparse=True))
    where[axis] = np.where(index < 0, index + length, index)
    values = src.astype(target.dtype, copy=False)
    out = target.copy()
    if combine is None:
        out[tuple(where)] = values
    else:
        with np.errstate(all="ignore"):
            combine.at(out, tuple(where), values)
    return out


def index_add(op: str, target: np.ndarray, indices: np.ndarray,
              updates: np.ndarray, axis) -> np.ndarray:
    """A copy of ``target`` with slice ``updates[..., j, ...]`` added to
    slice ``indices[j]`` of axis ``axis`` (IndexAdd, InplaceIndexAdd).

    indices: 1-D integers in [0, length) of that axis; updates: target's
    shape with that axis of len(indices). Repeats accumulate.
    """
    require_dtype(op, "indices", indices, INTS)
    given = int(axis)
    dim = given + target.ndim if given < 0 else given
    if not 0 <= dim < target.ndim:
        raise ValueError(f"{op}: axis {given} out of range for rank {target.ndim}")
    flat = np.asarray(indices).reshape(-1)
    expected = target.shape[:dim] + (flat.size,) + target.shape[dim + 1:]
    if np.ndim(indices) > 1 or updates.shape != expected:
        raise ValueError(f"{op}: updates shape {updates.shape}, expected {expected} "
                         f"(indices must be 1-D, got shape {np.shape(indices)})")
    bad = (flat < 0) | (flat >= target.shape[dim])
    if bad.any():
        raise IndexError(f"{op}: index {flat[bad.argmax()]} out of range "
                         f"[0, {target.shape[dim]}) of axis {dim}")
    out = target.copy()
    with np.errstate(over="ignore"):
        np.add.at(out, (slice(None),) * dim + (flat,),
                  updates.astype(target.dtype, copy=False))
    return out


def unique_in_order(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of 1-D ``x`` in order of first appearance, and
    the position among them of each element (x = values[index], int64)."""
    values, first, inverse = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return values[order], rank[inverse.reshape(-1)]
