"""Arithmetic progressions shared by Range, Arange, LinSpace and LinSpaceExt."""
from __future__ import annotations

import math

import numpy as np

from refinfer import args


def progression(start, end, step, dtype, op: str,
                maxlen: int | None = None) -> np.ndarray:
    """[start, start + step, ...) up to end (exclusive), in ``dtype``.

    The length is ceil((end - start) / step); a step of 0, or one pointing
    away from end, raises (MindSpore does too).
    """
    start, end, step = (args.scalar(v) for v in (start, end, step))
    if step == 0:
        raise ValueError(f"{op}: step must not be 0")
    if (end - start) * step < 0:
        raise ValueError(f"{op}: step {step} points away from end {end} "
                         f"(start {start})")
    length = math.ceil((end - start) / step)
    if maxlen is not None and length > maxlen:
        raise ValueError(f"{op}: {length} elements exceed maxlen {maxlen}")
    if np.dtype(dtype).kind in "iu":
        return (int(start) + int(step) * np.arange(length, dtype=np.int64)
                ).astype(dtype)
    return (start + step * np.arange(length, dtype=np.float64)).astype(dtype)


def is_float(*values) -> bool:
    """Whether any scalar or tensor among ``values`` is floating point."""
    return any(np.asarray(v).dtype.kind in "fc" for v in values)


def evenly_spaced(start, end, steps: int, dtype) -> np.ndarray:
    """``steps`` values from start to end inclusive, computed in ``dtype``
    as start + i * (end - start) / (steps - 1), as MindSpore's CPU kernel
    (so the last value can differ from end by rounding)."""
    steps = int(steps)
    if steps < 0:
        raise ValueError(f"steps must be >= 0, got {steps}")
    work = np.dtype(dtype) if np.dtype(dtype).kind == "f" else np.float64
    start = np.asarray(args.scalar(start), work)
    end = np.asarray(args.scalar(end), work)
    if steps == 1:
        return start.reshape(1).astype(dtype)
    delta = (end - start) / work.type(max(steps - 1, 1))
    values = start + np.arange(steps, dtype=work) * delta
    return values.astype(dtype) if np.dtype(dtype).kind == "f" \
        else np.trunc(values).astype(dtype)
