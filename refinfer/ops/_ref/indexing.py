"""Index checks, scatter arithmetic and one-hot encoding shared by the gather,
scatter and one-hot ops."""
from __future__ import annotations

import numpy as np


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
