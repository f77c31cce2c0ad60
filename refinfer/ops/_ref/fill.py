"""Constant tensors shared by the *Like, Fill* and New* ops."""
from __future__ import annotations

import numpy as np

from refinfer import args


def scalar_dtype(value) -> np.dtype:
    """MindSpore's dtype for a Python scalar fill value: bool -> bool,
    int -> int64, float -> float32; a tensor keeps its own dtype."""
    if isinstance(value, np.ndarray):
        return value.dtype
    if isinstance(value, (bool, np.bool_)):
        return np.dtype(np.bool_)
    if isinstance(value, (int, np.integer)):
        return np.dtype(np.int64)
    return np.dtype(np.float32)


def fill_of(shape, value, dtype=None) -> tuple[tuple[int, ...], np.ndarray]:
    """(shape as ints, value as a 0-d array of the result's dtype) of a
    fill: ``dtype`` or else the value's own dtype. What :func:`filled`
    makes, and the GPU's fill kernels (refinfer/cuda/fill.py) too."""
    dtype = scalar_dtype(value) if dtype is None else np.dtype(dtype)
    return (tuple(int(d) for d in shape),
            np.asarray(args.scalar(value)).astype(dtype))


def filled(shape, value, dtype=None) -> np.ndarray:
    """A tensor of ``shape`` holding ``value`` (scalar or one-element
    tensor), in ``dtype`` or else the value's own dtype."""
    shape, value = fill_of(shape, value, dtype)
    return np.full(shape, value, dtype=value.dtype)
