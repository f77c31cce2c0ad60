"""Axis handling and accumulation rules shared by the reduction ops
(ReduceSum/ReduceMean/ReduceMax/ReduceProd, SumExt/MeanExt/ProdExt,
Nansum, CumsumExt) and
Softmax/LogSoftmax."""
from __future__ import annotations

import numpy as np

from .common import as_result, cast, compute_dtype, is_float


def reduce_axes(axis, ndim: int) -> tuple[int, ...]:
    """Canonical reduction axes: None or () means every axis; ints are
    wrapped into [0, ndim). A 0-d input accepts axis 0 / -1."""
    if axis is None or len(axis) == 0:
        return tuple(range(ndim))
    rank = max(ndim, 1)
    out = []
    for a in axis:
        if not -rank <= a < rank:
            raise ValueError(f"axis {a} out of range for rank {ndim}")
        out.append(a % rank)
    if len(set(out)) != len(out):
        raise ValueError(f"repeated axis in {tuple(axis)}")
    return tuple(out) if ndim else ()


def total(x: np.ndarray, axes, keepdims: bool) -> np.ndarray:
    """Sum in x's own dtype, as MindSpore's ReduceSum: integers wrap on
    overflow, bool sums are logical or, float16 accumulates in float32."""
    work = compute_dtype(x.dtype)
    return np.asarray(np.sum(x, axis=axes, dtype=work, keepdims=keepdims)
                      ).astype(x.dtype, copy=False)


def as_sum_dtype(input, dtype):
    """input cast to ``dtype`` (TypeId) when given, else with bool and
    integers widened to int64 (the dtype rule of SumExt, ProdExt and
    CumsumExt)."""
    if dtype is not None:
        return cast(input, dtype)
    return input.astype(np.int64) if input.dtype.kind in "biu" else input


def typed_sum(input, dim, keepdim: bool, dtype) -> np.ndarray:
    """SumExt's sum (Nansum's too): over ``dim`` (None or (): every axis)
    in :func:`as_sum_dtype`'s dtype."""
    input = as_sum_dtype(input, dtype)
    return total(input, reduce_axes(dim, input.ndim), keepdim)


def product(x: np.ndarray, axes, keepdims: bool) -> np.ndarray:
    """Product in x's own dtype, as MindSpore's ReduceProd: integers wrap,
    a bool product is logical and, float16 accumulates in float32."""
    if x.dtype.kind == "b":
        return np.asarray(np.all(x, axis=axes, keepdims=keepdims))
    with np.errstate(over="ignore"):
        y = np.prod(x, axis=axes, dtype=compute_dtype(x.dtype), keepdims=keepdims)
    return np.asarray(y).astype(x.dtype, copy=False)


def mean(x: np.ndarray, axes, keepdims: bool) -> np.ndarray:
    """Mean in x's dtype. Integer means are MindSpore's: the sum wraps in
    the input dtype and is divided with truncation toward zero
    ([-1, -2, -4] -> -2; uint8 [255, 255, 1] -> 255 // 3 = 85)."""
    if x.dtype.kind == "b":
        raise TypeError("mean of a bool tensor is not supported")
    count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    if x.dtype.kind in "iu":
        s = total(x, axes, keepdims)
        if count == 0:
            return np.zeros_like(s)
        wide = s.astype(np.uint64 if x.dtype == np.uint64 else np.int64)
        q = wide // count
        q += (wide % count != 0) & (wide < 0)  # floor -> toward zero
        return as_result(q, x.dtype)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = np.sum(x, axis=axes, dtype=compute_dtype(x.dtype),
                   keepdims=keepdims) / count
    return np.asarray(m).astype(x.dtype, copy=False)


def shifted_logits(x: np.ndarray, axis: tuple[int, ...], op: str):
    """x - max(x) along the single softmax axis, in the compute dtype
    (float16 -> float32). Returns (shifted, axis as an int)."""
    if len(axis) != 1:
        raise ValueError(f"{op}: exactly one axis is supported, got {axis}")
    if x.ndim == 0:
        raise ValueError(f"{op}: input must have rank >= 1")
    if not is_float(x.dtype):
        raise TypeError(f"{op}: input must be a float tensor, got {x.dtype}")
    ax = reduce_axes(axis, x.ndim)[0]
    xw = x.astype(compute_dtype(x.dtype), copy=False)
    return xw - xw.max(axis=ax, keepdims=True), ax
