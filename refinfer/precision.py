"""Compute precision of a compiled plan: the float64 oracle.

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
"""
from __future__ import annotations

from typing import Callable

import numpy as np

PRECISIONS = ("float32", "float64")
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


def value_map(precision: str) -> Callable | None:
    """The mapping kernels' arguments go through (None: unchanged)."""
    return to_float64 if check_precision(precision) == "float64" else None


def constant_map(precision: str) -> Callable | None:
    """:func:`value_map` for constants, memoised: a weight shared by several
    nodes is widened once."""
    widen = value_map(precision)
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
