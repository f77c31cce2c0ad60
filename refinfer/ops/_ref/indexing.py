"""Index checks, scatter arithmetic and one-hot encoding shared by the gather,
scatter and one-hot ops."""
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
