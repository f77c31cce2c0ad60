"""Lite's ``Tensor`` and ``TensorMeta``.

A ``Tensor`` is a thin wrapper around a shared :class:`_TensorImpl` (Lite's
C++ tensor): ``Model.get_inputs()`` returns fresh wrappers around the
model's own input tensors on every call. Data is held zero-copy: setting
data from NumPy keeps a reference to the array, and reading returns a view.
"""
from __future__ import annotations

import logging
import math

import numpy as np

from ._checkparam import (check_isinstance, check_shape,
                          check_tensor_input_param)
from .enums import DataType, Format, data_type_of, numpy_type

log = logging.getLogger("refinfer")


class _TensorImpl:
    """The tensor state that wrappers share."""

    def __init__(self, name="", dtype=DataType.FLOAT32, shape=(),
                 fmt=Format.NCHW, data=None, owner=""):
        self.name = name
        self.owner = owner            # "input 'x' of m.mindir": for errors
        self.dtype = dtype
        self.shape = list(shape)
        self.format = fmt
        self.data = data              # ndarray (any shape, right bytes) or None
        self.frozen = data is not None  # set from NumPy: no more retyping

    @property
    def element_num(self) -> int:
        return math.prod(self.shape)

    @property
    def itemsize(self) -> int:
        np_type = numpy_type(self.dtype)
        return np.dtype(np_type).itemsize if np_type else 0

    def array(self) -> np.ndarray:
        """The data viewed with the tensor's shape (allocated on demand)."""
        np_type = numpy_type(self.dtype)
        if self.data is None:
            try:
                self.data = np.zeros(self.shape, dtype=np_type)
            except (MemoryError, ValueError) as exc:   # ValueError: > 2^63 bytes
                raise RuntimeError(
                    f"tensor {self.name!r} ({np.dtype(np_type).name}"
                    f"{self.shape}): cannot allocate its "
                    f"{math.prod(self.shape) * self.itemsize} bytes") from exc
        return self.data.reshape(self.shape)


class Tensor:
    """MindSpore Lite tensor: ``Tensor(tensor=None, shape=None, dtype=None,
    device=None)`` from a NumPy array, another Tensor, or dtype + shape."""

    def __init__(self, tensor=None, shape=None, dtype=None, device=None):
        check_tensor_input_param(shape, device)
        check_isinstance("dtype", dtype, DataType, enable_none=True)
        if tensor is None:
            self._tensor = (_TensorImpl(dtype=dtype, shape=shape)
                            if dtype is not None and shape is not None
                            else _TensorImpl())
        elif isinstance(tensor, _TensorImpl):
            self._tensor = tensor
        elif isinstance(tensor, Tensor):
            self._tensor = _from_tensor(tensor, shape, dtype)
        elif isinstance(tensor, np.ndarray):
            self._tensor = _from_numpy(tensor, shape, dtype)
        else:
            raise TypeError("tensor must be MindSpore Lite's Tensor._tensor or "
                            f"numpy ndarray, but got {type(tensor)}.")

    # -- properties ----------------------------------------------------------
    @property
    def name(self) -> str:
        return self._tensor.name

    @name.setter
    def name(self, name):
        check_isinstance("name", name, str)
        self._tensor.name = name

    @property
    def dtype(self) -> DataType:
        return self._tensor.dtype

    @dtype.setter
    def dtype(self, dtype):
        check_isinstance("dtype", dtype, DataType)
        if not self._ignored_on_frozen("dtype"):
            self._tensor.dtype = dtype

    @property
    def shape(self) -> list:
        return list(self._tensor.shape)

    @shape.setter
    def shape(self, shape):
        check_shape(shape)
        if not self._ignored_on_frozen("shape"):
            self._tensor.shape = list(shape)

    @property
    def format(self) -> Format:
        return self._tensor.format

    @format.setter
    def format(self, tensor_format):
        check_isinstance("format", tensor_format, Format)
        if not self._ignored_on_frozen("format"):
            self._tensor.format = tensor_format

    @property
    def element_num(self) -> int:
        return self._tensor.element_num

    @property
    def data_size(self) -> int:
        return self._tensor.element_num * self._tensor.itemsize

    @property
    def device(self) -> str:
        return "None:-1"

    def _ignored_on_frozen(self, what: str) -> bool:
        # Lite: once data comes from NumPy, these setters only log.
        if self._tensor.frozen:
            log.warning("Tensor %s: %s cannot change once data is set from "
                        "numpy; ignored", self.name, what)
        return self._tensor.frozen

    # -- data ----------------------------------------------------------------
    def get_data_to_numpy(self) -> np.ndarray:
        """The data as a NumPy array viewing the tensor's buffer."""
        impl = self._tensor
        if any(d <= 0 for d in impl.shape) or impl.element_num <= 0:
            log.error("Tensor %s has shape %s: no data to return", impl.name,
                      impl.shape)
            return np.array([], dtype=numpy_type(impl.dtype))
        return impl.array()

    def set_data_from_numpy(self, numpy_obj):
        """Use ``numpy_obj``'s buffer as the tensor's data (zero copy). Its
        dtype must equal the tensor's and its byte size the tensor's
        data_size; the tensor keeps its own shape."""
        if not isinstance(numpy_obj, np.ndarray):
            raise TypeError(f"numpy_obj must be numpy.ndarray, but got "
                            f"{type(numpy_obj)}.")
        array = np.ascontiguousarray(numpy_obj)
        data_type = data_type_of(array.dtype)
        if data_type != self.dtype:
            raise RuntimeError(f"data type not equal! Numpy type: "
                               f"{array.dtype.type}, Tensor type: {self.dtype}"
                               f"{self._expected()}")
        if array.nbytes != self.data_size:
            raise RuntimeError(f"data size not equal! Numpy size: "
                               f"{array.nbytes}, Tensor size: {self.data_size}"
                               f"{self._expected()}")
        self._tensor.data = array
        self._tensor.frozen = True

    def _expected(self) -> str:
        """What a model's input tensor expects, appended to Lite's words in
        errors (which scripts may match); nothing for the user's tensors."""
        impl = self._tensor
        if not impl.owner:
            return ""
        if any(d < 0 for d in impl.shape):
            return (f" ({impl.owner} has unknown dimensions {impl.shape}: "
                    f"call Model.resize first)")
        np_type = numpy_type(impl.dtype)
        dtype = np.dtype(np_type).name if np_type else str(impl.dtype)
        return f" ({impl.owner}: expected shape {impl.shape} {dtype})"

    def __str__(self):
        return (f"name: {self.name},\ndtype: {self.dtype},\nshape: "
                f"{self.shape},\nformat: {self.format},\nelement_num: "
                f"{self.element_num},\ndata_size: {self.data_size}.\n"
                f"device: {self.device}.")


def _from_numpy(array: np.ndarray, shape, dtype) -> _TensorImpl:
    array = np.ascontiguousarray(array)
    data_type = data_type_of(array.dtype)
    if shape is not None and list(shape) != list(array.shape):
        raise TypeError(f"user set shape is not equal numpy shape, user shape: "
                        f"{shape}, numpy shape is: {array.shape}.")
    if dtype is not None and dtype != data_type:
        raise TypeError(f"user set dtype is not equal numpy dtype, user dtype: "
                        f"{dtype}, numpy dtype is: {array.dtype}.")
    return _TensorImpl(dtype=data_type, shape=array.shape, data=array)


def _from_tensor(tensor: Tensor, shape, dtype) -> _TensorImpl:
    if shape is not None and list(shape) != tensor.shape:
        raise TypeError(f"user set shape is not equal numpy shape, user's "
                        f"shape: {shape}, tensor shape is: {tensor.shape}.")
    if dtype is not None and dtype != tensor.dtype:
        raise TypeError(f"user set dtype is not equal tensor dtype, user's "
                        f"dtype: {dtype}, tensor dtype is: {tensor.dtype}.")
    return _TensorImpl(dtype=tensor.dtype, shape=tensor.shape,
                       fmt=tensor.format, data=tensor.get_data_to_numpy())


class TensorMeta:
    """Metadata of a model output (what ``Model.get_outputs`` returns)."""

    def __init__(self):
        self.name = ""
        self.dtype = DataType.UNKNOWN
        self.shape = []
        self.format = Format.DEFAULT
        self.element_num = 0
        self.data_size = 0

    def __str__(self):
        return (f"name: {self.name},\ndtype: {self.dtype},\nshape: "
                f"{self.shape},\nformat: {self.format},\nelement_num: "
                f"{self.element_num},\ndata_size: {self.data_size}.")
