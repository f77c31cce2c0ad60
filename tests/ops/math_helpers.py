"""Helpers of the math, activation, comparison and reduction op tests: seeded
samples and independent float64 / Python-int reference paths."""
from __future__ import annotations

import math

import numpy as np

FLOATS = [np.float16, np.float32, np.float64]
SIGNED = [np.int8, np.int16, np.int32, np.int64]
INTS = SIGNED + [np.uint8]
# (shape, shape) operand pairs: rank 0, 0-size dims, broadcasting both ways.
BINARY_SHAPES = [((), ()), ((4,), ()), ((), (3,)), ((2, 3), (3,)),
                 ((2, 1, 4), (3, 1)), ((0, 3), (3,)), ((2, 0), (1,)),
                 ((1, 3), (2, 1))]
UNARY_SHAPES = [(), (0,), (5,), (2, 3, 4), (3, 0, 2)]


def sample(rng, shape, dtype, low=-4.0, high=4.0):
    """Seeded values of ``dtype``: uniform floats in [low, high), integers
    in [low, high] clipped to the dtype, bools with p = 0.5."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(int(low), int(info.min)), min(int(high), int(info.max))
        return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)
    return rng.uniform(low, high, shape).astype(dtype)


def wrap(value: int, dtype) -> int:
    """A Python int as the two's-complement value of an integer dtype."""
    info = np.iinfo(dtype)
    span = int(info.max) - int(info.min) + 1
    return (int(value) - int(info.min)) % span + int(info.min)


def apply(f, *arrays, out=np.float64):
    """f over Python scalars of the broadcast arrays (float64 math-module
    path, or exact Python ints), as an array of ``out``."""
    arrays = np.broadcast_arrays(*[np.asarray(a) for a in arrays])
    shape = arrays[0].shape
    values = [f(*(a.item() for a in items))
              for items in zip(*(a.ravel() for a in arrays))]
    if np.dtype(out).kind in "iu":
        values = [wrap(v, out) for v in values]
    return np.array(values, dtype=out).reshape(shape)


def nan_safe(f):
    """f(v) with NaN in, NaN out, and math domain errors as NaN / inf."""
    def safe(*v):
        if any(isinstance(x, float) and math.isnan(x) for x in v):
            return math.nan
        try:
            return f(*v)
        except ValueError:
            return math.nan
        except (OverflowError, ZeroDivisionError):
            return math.inf
    return safe
