"""Dtype tables: MindIR TensorProto.DataType, MindSpore TypeId, NumPy.

Two numberings meet in a MindIR file: tensors carry ``TensorProto.DataType``
codes, while PRIMITIVE_FUNCTION dtype arguments (Cast, Argmax, ...) carry
MindSpore ``TypeId`` ints, the same numbers as Lite's ``DataType`` enum.
"""
from __future__ import annotations

import numpy as np

from .errors import SHOWN_VALUES, describe_value

try:  # optional: NumPy has no bfloat16 of its own
    import ml_dtypes
except ImportError:  # pragma: no cover - depends on the installation
    ml_dtypes = None

# bfloat16 as a NumPy dtype, or None without the ml_dtypes package.
BFLOAT16 = np.dtype(ml_dtypes.bfloat16) if ml_dtypes is not None else None
BFLOAT16_HINT = ("bfloat16 tensors need the ml_dtypes package "
                 "(pip install ml_dtypes, or refinfer[bfloat16])")

# TensorProto.DataType -> NumPy (BFLOAT16=16 with ml_dtypes; strings and
# quantised types have no NumPy equivalent here).
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
if BFLOAT16 is not None:
    MINDIR_TO_NUMPY[16] = BFLOAT16
    TYPEID_TO_NUMPY[45] = BFLOAT16
NUMPY_TO_TYPEID = {np.dtype(v): k for k, v in TYPEID_TO_NUMPY.items()}


def numpy_of_mindir(code: int) -> np.dtype:
    """NumPy dtype of a TensorProto.DataType code, or ValueError."""
    if code in MINDIR_TO_NUMPY:
        return np.dtype(MINDIR_TO_NUMPY[code])
    name = MINDIR_NAMES.get(code, f"code {code}")
    hint = f" ({BFLOAT16_HINT})" if code == 16 else ""
    raise ValueError(f"unsupported tensor data type {name}{hint}")


def dtype_from_any(value) -> np.dtype:
    """A dtype given as NumPy dtype/type, TypeId int, or dtype name."""
    if isinstance(value, np.dtype):
        return value
    if isinstance(value, type) and issubclass(value, np.generic):
        return np.dtype(value)
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if int(value) in TYPEID_TO_NUMPY:
            return np.dtype(TYPEID_TO_NUMPY[int(value)])
        hint = f" ({BFLOAT16_HINT})" if int(value) == 45 else ""
        raise ValueError(f"unknown MindSpore TypeId {int(value)}{hint}")
    if isinstance(value, str):
        try:
            return np.dtype(value)
        except TypeError:
            raise ValueError(f"unknown dtype name {value!r}") from None
    raise TypeError(f"not a dtype: {describe_value(value, SHOWN_VALUES)}")
