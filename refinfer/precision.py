"""Compute precision of a compiled plan: float32, the float64 oracle, and
float16 storage.

``compile_model(..., precision="float64")`` runs a float32 model in float64
without touching any kernel, by mapping the values kernels see:

- every constant argument (weights, constants, dtype arguments) is mapped
  once, when the plan is compiled: float32 arrays and scalars become
  float64, and the dtype float32 becomes float64, so ``Cast(x, float32)``
  keeps float64;
- every value a kernel reads at run time (model inputs, results of other
  nodes) goes through the same mapping, composed with the argument's own
  normaliser. Results a kernel makes float32 from integers (``Sqrt`` of an
  int tensor) are therefore widened by their readers.

float16 and every non-float32 type are left alone: the oracle answers "how
far is a float32 computation from the exact one".

``precision="float16"`` is float16 storage with float32 arithmetic: what
Lite's GPU ``precision_mode = "preferred_fp16"`` means (fp16 tensors, fp32
accumulation). Every float32 value is rounded to float16 precision and kept
float32 (:func:`to_float16`: beyond 65504 it becomes inf, as in real
float16 storage): constants once, when the plan is compiled; model inputs
when a run starts (refinfer/executor.py); every node's result as it is
made (:func:`storage_map`, :func:`storing`), before any reader sees it.
Inside an op the arithmetic stays float32, and so do the output dtypes.
The device plan rounds its results on the device (refinfer/cuda/plan.py).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

PRECISIONS = ("float32", "float64", "float16")
FLOAT16 = np.dtype(np.float16)
FLOAT32 = np.dtype(np.float32)
FLOAT64 = np.dtype(np.float64)


def check_precision(precision: str) -> str:
    if precision not in PRECISIONS:
        raise ValueError(f"unknown precision {precision!r} (expected one of "
                         f"{', '.join(PRECISIONS)})")
    return precision


def to_float64(value):
    """``value`` with float32 widened to float64: arrays, NumPy scalars,
    the dtype itself, and (recursively) tuples and lists."""
    if isinstance(value, np.ndarray):
        return value.astype(FLOAT64) if value.dtype == FLOAT32 else value
    if isinstance(value, np.float32):
        return np.float64(value)
    if isinstance(value, np.dtype):
        return FLOAT64 if value == FLOAT32 else value
    if isinstance(value, (tuple, list)) and value:
        return type(value)(to_float64(v) for v in value)
    return value


def to_float16(value):
    """``value`` with its float32 tensors rounded to float16 precision,
    still float32 (beyond 65504: inf, as float16 storage): arrays and
    (recursively) tuples and lists. NumPy scalars are op attributes
    (an epsilon of 1e-12 would become 0), not stored tensors: they stay,
    and so does the dtype float32 (a result cast to float32 is rounded as
    every result is)."""
    if isinstance(value, np.ndarray):
        if value.dtype != FLOAT32:
            return value
        with np.errstate(over="ignore"):    # overflow to inf is the point
            return value.astype(FLOAT16).astype(FLOAT32)
    if isinstance(value, (tuple, list)) and value:
        return type(value)(to_float16(v) for v in value)
    return value


def value_map(precision: str) -> Callable | None:
    """The mapping kernels' arguments read at run time go through (None:
    unchanged). float16 needs none: every value read was rounded when it
    was stored (:func:`storage_map`)."""
    return to_float64 if check_precision(precision) == "float64" else None


def storage_map(precision: str) -> Callable | None:
    """The mapping every value stored in a slot goes through, model inputs
    and node results (None: unchanged): float16's rounding."""
    return to_float16 if check_precision(precision) == "float16" else None


def storing(kernel: Callable, store: Callable | None) -> Callable:
    """``kernel`` with its result mapped by ``store`` (None: ``kernel``)."""
    if store is None:
        return kernel
    return lambda *args: store(kernel(*args))


def constant_map(precision: str) -> Callable | None:
    """The mapping of constants, memoised: a weight shared by several nodes
    is widened (float64) or rounded (float16) once."""
    widen = value_map(precision) or storage_map(precision)
    if widen is None:
        return None
    done: dict[int, tuple] = {}

    def widen_constant(value):
        key = id(value)
        if key not in done:
            done[key] = (value, widen(value))   # keeps ``value`` (and its id)
        return done[key][1]
    return widen_constant


def compose(widen: Callable | None, convert: Callable | None):
    """``widen(convert(v))`` with either step possibly absent."""
    if widen is None or convert is None:
        return convert or widen
    return lambda value: widen(convert(value))


def cast_outputs(outputs: list, dtypes: list) -> list:
    """Oracle outputs cast back to the model's declared dtypes (``None``:
    kept as they are)."""
    return [o if d is None or not isinstance(o, np.ndarray) else
            o.astype(d, copy=False) for o, d in zip(outputs, dtypes)]
