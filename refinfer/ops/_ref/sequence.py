"""Arithmetic progressions shared by Range, Arange, LinSpace, LinSpaceExt and
make_range; element equality and comparisons of the tuple and list ops."""
from __future__ import annotations

import math
import operator

import numpy as np

from refinfer import args
from refinfer.errors import describe_value

from .scalar import operand


def affine(length: int, coefficients: np.ndarray, dtype) -> np.ndarray:
    """[a + i * b for i < length] with (a, b) = coefficients, computed in
    the coefficients' dtype (int64 wraps, floats round at each step), then
    cast to ``dtype`` (a float into an integer truncates toward zero)."""
    start, step = coefficients
    return (start + np.arange(length, dtype=coefficients.dtype) * step
            ).astype(dtype)


def progression(start, end, step, dtype, op: str, maxlen: int | None = None,
                fill=affine) -> np.ndarray | None:
    """[start, start + step, ...) up to end (exclusive), in ``dtype``.

    The length is ceil((end - start) / step); a step of 0, or one pointing
    away from end, raises (MindSpore does too). dtype None is float32 when
    any argument is a float, else int64 (Range, Arange). Integer dtypes
    compute in int64, float ones in float64; ``fill`` is :func:`affine` or
    a kernel with its signature (whose None, declining, comes back as is).
    """
    if dtype is None:
        dtype = np.float32 if is_float(start, end, step) else np.int64
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
        return fill(length, np.array([int(start), int(step)], np.int64), dtype)
    return fill(length, np.array([start, step], np.float64), dtype)


def is_float(*values) -> bool:
    """Whether any scalar or tensor among ``values`` is floating point."""
    return any(np.asarray(v).dtype.kind in "fc" for v in values)


def evenly_spaced(start, end, steps: int, dtype, fill=affine) -> np.ndarray | None:
    """``steps`` values from start to end inclusive, computed in ``dtype``
    (None: float32; float64 for integer dtypes, truncated at the end) as
    start + i * (end - start) / (steps - 1), as MindSpore's CPU kernel (so
    the last value can differ from end by rounding). ``fill``: as for
    :func:`progression`."""
    dtype = np.float32 if dtype is None else dtype
    steps = int(steps)
    if steps < 0:
        raise ValueError(f"steps must be >= 0, got {steps}")
    work = np.dtype(dtype) if np.dtype(dtype).kind == "f" else np.dtype(np.float64)
    start = work.type(args.scalar(start))
    end = work.type(args.scalar(end))
    if steps == 1:
        return np.array([start]).astype(dtype)
    delta = (end - start) / work.type(max(steps - 1, 1))
    return fill(steps, np.array([start, delta], work), dtype)


def same_element(a, b) -> bool:
    """Whether two elements of a tuple or list are equal: scalars by value,
    tensors when their shapes and all their values are, sequences element
    by element."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and bool(np.array_equal(a, b))
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(map(same_element, a, b))
    return bool(a == b)


def compare(x, y, op: str) -> bool:
    """Python's lexicographic comparison of two tuples or lists: ``op`` is
    "eq" (elements compared by :func:`same_element`), "lt", "le", "gt" or
    "ge" (elements must be scalars)."""
    require_sequence(x, f"sequence {op}")
    require_sequence(y, f"sequence {op}")
    if op == "eq":
        return len(x) == len(y) and all(map(same_element, x, y))
    return getattr(operator, op)(tuple(map(operand, x)), tuple(map(operand, y)))


def require_sequence(value, op: str) -> None:
    """A clear error where ``op`` is given something other than a tuple or
    a list (a mutated graph's tensor or number)."""
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{op}: expected a tuple or a list, got "
                        f"{describe_value(value)}")


def not_empty(sequence, op: str):
    """``sequence``, which an op that reduces it needs to hold an element."""
    if not len(sequence):
        raise ValueError(f"{op}: the sequence is empty")
    return sequence


def position(sequence, index, op: str) -> int:
    """``index`` into a tuple or list, checked: an element of ``sequence``
    (negative counts from the end), else an error naming both."""
    require_sequence(sequence, op)
    length, index = len(sequence), args.integer(index)
    if not -length <= index < length:
        raise IndexError(f"{op}: index {index} out of range for a sequence "
                         f"of {length}")
    return index
