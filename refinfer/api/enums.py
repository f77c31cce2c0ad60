"""Lite's enums: DataType (values are MindSpore TypeIds), Format, ModelType,
ModelGroupFlag."""
from enum import Enum

import numpy as np


class DataType(Enum):
    UNKNOWN = 0
    BOOL = 30
    INT8 = 32
    INT16 = 33
    INT32 = 34
    INT64 = 35
    UINT8 = 37
    UINT16 = 38
    UINT32 = 39
    UINT64 = 40
    FLOAT16 = 42
    FLOAT32 = 43
    FLOAT64 = 44
    INVALID = 2147483647


class Format(Enum):
    DEFAULT = -1
    NCHW = 0
    NHWC = 1
    NHWC4 = 2
    HWKC = 3
    HWCK = 4
    KCHW = 5
    CKHW = 6
    KHWC = 7
    CHWK = 8
    HW = 9
    HW4 = 10
    NC = 11
    NC4 = 12
    NC4HW4 = 13
    NCDHW = 15
    NWC = 16
    NCW = 17
    NDHWC = 18
    NC8HW8 = 19


class ModelType(Enum):
    MINDIR = 0
    MINDIR_LITE = 4


class ModelGroupFlag(Enum):
    SHARE_WEIGHT = 1
    SHARE_WORKSPACE = 2
    SHARE_WEIGHT_WORKSPACE = 3


_NUMPY_TYPES = {
    DataType.BOOL: np.bool_, DataType.INT8: np.int8, DataType.INT16: np.int16,
    DataType.INT32: np.int32, DataType.INT64: np.int64,
    DataType.UINT8: np.uint8, DataType.UINT16: np.uint16,
    DataType.UINT32: np.uint32, DataType.UINT64: np.uint64,
    DataType.FLOAT16: np.float16, DataType.FLOAT32: np.float32,
    DataType.FLOAT64: np.float64,
}
_DATA_TYPES = {v: k for k, v in _NUMPY_TYPES.items()}


def numpy_type(data_type: DataType):
    """The NumPy scalar type of a DataType (None for UNKNOWN/INVALID)."""
    return _NUMPY_TYPES.get(data_type)


def data_type_of(np_dtype) -> DataType:
    """The DataType of a NumPy dtype, looked up by its exact scalar type."""
    scalar_type = np.dtype(np_dtype).type
    if scalar_type not in _DATA_TYPES:
        raise TypeError(f"Unsupported numpy dtype value {np.dtype(np_dtype)}")
    return _DATA_TYPES[scalar_type]
