"""Helpers shared by the reference kernels."""
from __future__ import annotations

import numpy as np

FLOATS = ("float16", "float32", "float64")
SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
INTS = SIGNED + UNSIGNED
NUMBERS = FLOATS + INTS
ALL = NUMBERS + ("bool",)


def promote(a, b):
    """Operands of a binary op as arrays of MindSpore's result dtype.

    A Python scalar takes the tensor's dtype (``Muls(x, 2)`` keeps x's dtype),
    except a float scalar with an integer or bool tensor, which gives float32.
    Between tensors, a float tensor wins over an integer or bool one; otherwise
    NumPy's promotion applies.
    """
    a_t, b_t = isinstance(a, np.ndarray), isinstance(b, np.ndarray)
    if a_t and b_t:
        dtype = _tensor_result_type(a.dtype, b.dtype)
    elif a_t or b_t:
        tensor, other = (a, b) if a_t else (b, a)
        dtype = _scalar_result_type(tensor.dtype, other)
    else:
        return a, b  # scalar arithmetic stays Python
    return np.asarray(a, dtype=dtype), np.asarray(b, dtype=dtype)


def _tensor_result_type(x: np.dtype, y: np.dtype) -> np.dtype:
    x_float, y_float = x.kind in "fc", y.kind in "fc"
    if x_float != y_float:
        return x if x_float else y
    return np.result_type(x, y)


def _scalar_result_type(tensor: np.dtype, scalar) -> np.dtype:
    if isinstance(scalar, (float, np.floating)) and tensor.kind in "biu":
        return np.dtype(np.float32)
    if isinstance(scalar, (int, np.integer)) and tensor.kind == "b" \
            and not isinstance(scalar, bool):
        return np.dtype(np.int64)
    return tensor


def as_result(value, dtype=None) -> np.ndarray:
    """A kernel result as an ndarray (NumPy returns scalars for 0-d math)."""
    out = np.asarray(value)
    return out if dtype is None else out.astype(dtype, copy=False)
