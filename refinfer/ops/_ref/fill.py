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


def filled(shape, value, dtype=None) -> np.ndarray:
    """A tensor of ``shape`` holding ``value`` (scalar or one-element
    tensor), in ``dtype`` or else the value's own dtype."""
    dtype = scalar_dtype(value) if dtype is None else np.dtype(dtype)
    value = np.asarray(args.scalar(value)).astype(dtype)
    return np.full(tuple(int(d) for d in shape), value, dtype=dtype)
