"""Helpers shared by the search, cumulative and sorting ops (Argmax,
ArgMaxWithValue, MaxDim, CumSum, Cummax, TopK, Sort, Median, ...): axis
checks, MindSpore's NaN and tie rules."""
from __future__ import annotations

import numpy as np

from refinfer import args

from .common import require_tensors


def one_axis(axis, ndim: int) -> int:
    """A single axis wrapped into [0, ndim); a 0-d input takes 0 / -1."""
    axis = args.integer(axis)
    rank = max(ndim, 1)
    if not -rank <= axis < rank:
        raise ValueError(f"axis {axis} out of range for rank {ndim}")
    return axis % rank


def scan_index(x: np.ndarray, axis: int, largest: bool) -> np.ndarray:
    """Index of the max (largest) or min along ``axis`` as MindSpore's CPU
    kernels find it: a scan keeping the first of equal values, in which
    NaN never wins a comparison, so a NaN is chosen only when it comes
    first ([nan, 1, 3] -> 0, [1, nan, 3] -> 2 for max)."""
    if x.dtype.kind == "f":
        first_nan = np.isnan(np.take(x, [0], axis=axis))
        fill = -np.inf if largest else np.inf
        x = np.where(np.isnan(x), fill, x)
    else:
        first_nan = None
    index = np.argmax(x, axis=axis) if largest else np.argmin(x, axis=axis)
    if first_nan is not None:
        index = np.where(np.squeeze(first_nan, axis=axis), 0, index)
    return index


def extreme(x: np.ndarray, axis, keepdims: bool, largest: bool):
    """(values, int64 indices) of the max or min along one axis, with
    ``scan_index``'s rules; a 0-d input is its own extreme at index 0."""
    require_tensors("", input=x)
    if x.ndim == 0:
        one_axis(axis, 0)
        return x.copy(), np.zeros((), np.int64)
    ax = one_axis(axis, x.ndim)
    if x.shape[ax] == 0:
        raise ValueError("cannot search an empty axis")
    index = np.expand_dims(scan_index(x, ax, largest), ax)
    values = np.take_along_axis(x, index, axis=ax)
    if not keepdims:
        index, values = np.squeeze(index, ax), np.squeeze(values, ax)
    return values, index.astype(np.int64)


def stable_order(x: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """Indices sorting x along axis, equal values in their original order
    (for descending too: [1, 3, 3] -> [1, 2, 0])."""
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    flipped = np.flip(x, axis)
    order = np.flip(np.argsort(flipped, axis=axis, kind="stable"), axis)
    return x.shape[axis] - 1 - order


def sort_along(x: np.ndarray, axis, descending: bool, index_dtype):
    """(sorted values, indices) along one axis, stable."""
    if x.ndim == 0:
        one_axis(axis, 0)
        return x.copy(), np.zeros((), index_dtype)
    ax = one_axis(axis, x.ndim)
    order = stable_order(x, ax, descending)
    return np.take_along_axis(x, order, axis=ax), order.astype(index_dtype)


def top_k(x: np.ndarray, k, axis, largest: bool, index_dtype):
    """The k largest (or smallest) values along one axis, in order, with
    their indices. Equal values come in index order (MindSpore's CPU TopK
    may order ties differently)."""
    k = int(k)
    size = x.shape[one_axis(axis, x.ndim)] if x.ndim else 1
    if not 0 <= k <= size:
        raise ValueError(f"k = {k} is out of range for an axis of {size}")
    values, index = sort_along(x, axis, largest, index_dtype)
    if x.ndim == 0:
        return values, index
    ax = one_axis(axis, x.ndim)
    keep = np.arange(k)
    return np.take(values, keep, axis=ax), np.take(index, keep, axis=ax)


def flat_or_axis_index(x: np.ndarray, dim, keepdim: bool, largest: bool):
    """int64 index of the max / min along ``dim``, or into the flattened
    input when dim is None (mint.argmax / argmin)."""
    if dim is None:
        index = extreme(x.reshape(-1), 0, False, largest)[1]
        return index.reshape((1,) * x.ndim) if keepdim else index
    return extreme(x, dim, keepdim, largest)[1]


def cumulative(scan, x: np.ndarray, axis, exclusive: bool, reverse: bool,
               identity) -> np.ndarray:
    """np.cumsum / np.cumprod along one axis in x's dtype (float16
    accumulates in float32, integers wrap), optionally exclusive (shifted by
    one, starting from ``identity``) and reversed."""
    require_tensors("", input=x)
    if x.ndim == 0:
        one_axis(axis, 0)
        return np.full((), identity, x.dtype) if exclusive else x.copy()
    ax = one_axis(axis, x.ndim)
    if x.shape[ax] == 0:
        return x.copy()
    work = np.float32 if x.dtype == np.float16 else x.dtype
    y = np.flip(x, ax) if reverse else x
    with np.errstate(over="ignore"):
        y = scan(y, axis=ax, dtype=work)
    if exclusive:
        head = np.full_like(np.take(y, [0], axis=ax), identity)
        y = np.concatenate([head, np.take(y, np.arange(y.shape[ax] - 1), axis=ax)],
                           axis=ax)
    y = np.flip(y, ax) if reverse else y
    return np.ascontiguousarray(y).astype(x.dtype, copy=False)


def running_extreme(x: np.ndarray, axis, largest: bool, index_dtype):
    """(running max or min, index where it was found) along one axis; on
    ties the index moves to the latest equal value."""
    if x.ndim == 0:
        one_axis(axis, 0)
        return x.copy(), np.zeros((), index_dtype)
    ax = one_axis(axis, x.ndim)
    moved = np.moveaxis(x, ax, 0)
    extreme = np.maximum if largest else np.minimum    # both propagate NaN
    values = extreme.accumulate(moved, axis=0)
    # The index moves where a value is taken: where it equals the running
    # value (>= on ties), or is the first NaN, which then stays.
    taken = moved == values
    if x.dtype.kind == "f":
        nan = np.isnan(values)
        taken[1:] |= nan[1:] & ~nan[:-1]
    taken[:1] = True
    steps = np.arange(moved.shape[0]).reshape((-1,) + (1,) * (x.ndim - 1))
    index = np.maximum.accumulate(np.where(taken, steps, 0), axis=0)
    return (np.moveaxis(values, 0, ax),
            np.moveaxis(index.astype(index_dtype, copy=False), 0, ax))


def lower_median(x: np.ndarray, axis, keepdims: bool = False):
    """(lower median, int64 index of it) along one axis: for n values the
    (n - 1) // 2-th smallest (stable order)."""
    if x.ndim == 0:
        one_axis(axis, 0)
        return x.copy(), np.zeros((), np.int64)
    ax = one_axis(axis, x.ndim)
    n = x.shape[ax]
    if n == 0:
        raise ValueError("median of an empty axis")
    pick = np.take(stable_order(x, ax, False), [(n - 1) // 2], axis=ax)
    values = np.take_along_axis(x, pick, axis=ax)
    if not keepdims:
        pick, values = np.squeeze(pick, ax), np.squeeze(values, ax)
    return values, pick.astype(np.int64)
