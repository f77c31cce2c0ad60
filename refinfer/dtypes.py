"""Dtype tables: MindIR TensorProto.DataType, MindSpore TypeId, NumPy.

Two numberings meet in a MindIR file: tensors carry ``TensorProto.DataType``
codes, while PRIMITIVE_FUNCTION dtype arguments (Cast, Argmax, ...) carry
MindSpore ``TypeId`` ints, the same numbers as Lite's ``DataType`` enum.
"""
from __future__ import annotations

import numpy as np

# TensorProto.DataType -> NumPy (BFLOAT16=16, strings and quantised types
# have no NumPy equivalent here).
MINDIR_TO_NUMPY = {
    1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16,
    6: np.int32, 7: np.int64, 9: np.bool_, 10: np.float16, 11: np.float64,
    12: np.uint32, 13: np.uint64, 14: np.complex64, 15: np.complex128,
    17: np.float64,
}
MINDIR_NAMES = {0: "UNDEFINED", 8: "STRING", 16: "BFLOAT16", 18: "QINT4X2"}

# MindSpore TypeId -> NumPy.
TYPEID_TO_NUMPY = {
    30: np.bool_, 32: np.int8, 33: np.int16, 34: np.int32, 35: np.int64,
    37: np.uint8, 38: np.uint16, 39: np.uint32, 40: np.uint64,
    42: np.float16, 43: np.float32, 44: np.float64,
    51: np.complex64, 52: np.complex128,
}
NUMPY_TO_TYPEID = {np.dtype(v): k for k, v in TYPEID_TO_NUMPY.items()}


def numpy_of_mindir(code: int) -> np.dtype:
    """NumPy dtype of a TensorProto.DataType code, or ValueError."""
    if code in MINDIR_TO_NUMPY:
        return np.dtype(MINDIR_TO_NUMPY[code])
    name = MINDIR_NAMES.get(code, f"code {code}")
    raise ValueError(f"unsupported tensor data type {name}")


def dtype_from_any(value) -> np.dtype:
    """A dtype given as NumPy dtype/type, TypeId int, or dtype name."""
    if isinstance(value, np.dtype):
        return value
    if isinstance(value, type) and issubclass(value, np.generic):
        return np.dtype(value)
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if int(value) in TYPEID_TO_NUMPY:
            return np.dtype(TYPEID_TO_NUMPY[int(value)])
        raise ValueError(f"unknown MindSpore TypeId {int(value)}")
    if isinstance(value, str):
        return np.dtype(value)
    raise TypeError(f"not a dtype: {value!r}")
