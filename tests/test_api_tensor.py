"""``mslite.Tensor`` / ``TensorMeta``: construction, Lite's exact argument
errors (lite-api.md §2, §5), set_data_from_numpy rules, zero-copy aliasing."""
import numpy as np
import pytest

import refinfer as mslite
from refinfer import DataType, Format, Tensor, TensorMeta

NUMPY_OF = {
    DataType.BOOL: np.bool_, DataType.INT8: np.int8, DataType.INT16: np.int16,
    DataType.INT32: np.int32, DataType.INT64: np.int64,
    DataType.UINT8: np.uint8, DataType.UINT16: np.uint16,
    DataType.UINT32: np.uint32, DataType.UINT64: np.uint64,
    DataType.FLOAT16: np.float16, DataType.FLOAT32: np.float32,
    DataType.FLOAT64: np.float64,
}


# -- enums -----------------------------------------------------------------------
def test_data_type_values_are_mindspore_type_ids():
    assert {m.name: m.value for m in DataType} == {
        "UNKNOWN": 0, "BOOL": 30, "INT8": 32, "INT16": 33, "INT32": 34,
        "INT64": 35, "UINT8": 37, "UINT16": 38, "UINT32": 39, "UINT64": 40,
        "FLOAT16": 42, "FLOAT32": 43, "FLOAT64": 44, "INVALID": 2147483647}


def test_format_and_model_type_values():
    assert Format.DEFAULT.value == -1 and Format.NCHW.value == 0
    assert Format.NHWC.value == 1 and Format.NCDHW.value == 15
    assert Format.NC8HW8.value == 19
    assert mslite.ModelType.MINDIR.value == 0
    assert mslite.ModelType.MINDIR_LITE.value == 4
    assert str(DataType.FLOAT32) == "DataType.FLOAT32"


# -- construction ------------------------------------------------------------------
def test_default_tensor():
    t = Tensor()
    assert (t.name, t.dtype, t.shape, t.format) == ("", DataType.FLOAT32, [],
                                                    Format.NCHW)
    assert t.element_num == 1
    assert t.data_size == 4
    assert t.device == "None:-1"


@pytest.mark.parametrize("kwargs", [dict(dtype=DataType.INT8),
                                    dict(shape=[2, 3])])
def test_dtype_or_shape_alone_is_ignored(kwargs):
    t = Tensor(**kwargs)
    assert t.dtype == DataType.FLOAT32
    assert t.shape == []


@pytest.mark.parametrize("dtype", sorted(NUMPY_OF, key=lambda d: d.value))
def test_dtype_and_shape(dtype):
    t = Tensor(shape=(2, 3), dtype=dtype)
    assert t.shape == [2, 3]
    assert isinstance(t.shape, list)
    assert t.dtype == dtype
    assert t.format == Format.NCHW
    assert t.element_num == 6
    assert t.data_size == 6 * np.dtype(NUMPY_OF[dtype]).itemsize
    data = t.get_data_to_numpy()
    assert data.shape == (2, 3)
    assert data.dtype == NUMPY_OF[dtype]


@pytest.mark.parametrize("np_type", list(NUMPY_OF.values()))
def test_from_numpy(np_type):
    array = np.arange(12).reshape(3, 4).astype(np_type)
    t = Tensor(array)
    assert t.dtype == {v: k for k, v in NUMPY_OF.items()}[np_type]
    assert t.shape == [3, 4]
    assert t.element_num == 12
    assert t.data_size == array.nbytes
    np.testing.assert_array_equal(t.get_data_to_numpy(), array)
    assert t.get_data_to_numpy().dtype == np_type


def test_from_numpy_with_matching_shape_and_dtype():
    array = np.zeros((2, 3), np.int32)
    t = Tensor(array, shape=(2, 3), dtype=DataType.INT32)
    assert t.shape == [2, 3] and t.dtype == DataType.INT32
    t = Tensor(array, shape=[2, 3])
    assert t.shape == [2, 3]


def test_from_numpy_is_zero_copy_both_ways():
    array = np.zeros((2, 3), np.float32)
    t = Tensor(array)
    array[1, 2] = 7.0
    assert t.get_data_to_numpy()[1, 2] == 7.0
    view = t.get_data_to_numpy()
    view[0, 0] = -3.0
    assert array[0, 0] == -3.0


def test_from_non_contiguous_numpy_copies():
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    array = base[:, ::2]
    t = Tensor(array)
    assert t.shape == [4, 3]
    np.testing.assert_array_equal(t.get_data_to_numpy(), array)
    base[0, 0] = 100.0
    assert t.get_data_to_numpy()[0, 0] == 0.0


def test_from_tensor_aliases_source():
    array = np.arange(6, dtype=np.float32).reshape(2, 3)
    source = Tensor(array)
    source.name = "src"
    copy = Tensor(source)
    assert copy.shape == [2, 3] and copy.dtype == DataType.FLOAT32
    assert copy.name == ""
    array[0, 1] = 42.0
    assert copy.get_data_to_numpy()[0, 1] == 42.0
    copy.get_data_to_numpy()[1, 1] = -1.0
    assert source.get_data_to_numpy()[1, 1] == -1.0


def test_from_tensor_with_matching_shape_and_dtype():
    source = Tensor(np.zeros((2, 2), np.int64))
    copy = Tensor(source, shape=[2, 2], dtype=DataType.INT64)
    assert copy.shape == [2, 2] and copy.dtype == DataType.INT64


# -- construction errors ------------------------------------------------------------
def test_from_numpy_shape_mismatch():
    with pytest.raises(TypeError) as info:
        Tensor(np.zeros((2, 3), np.float32), shape=[3, 2])
    message = str(info.value)
    assert message.startswith("user set shape is not equal numpy shape, user "
                              "shape: [3, 2], numpy shape is: ")
    assert "2, 3" in message and message.endswith(".")


def test_from_numpy_dtype_mismatch():
    with pytest.raises(TypeError) as info:
        Tensor(np.zeros((2,), np.float32), dtype=DataType.INT32)
    assert str(info.value) == ("user set dtype is not equal numpy dtype, user "
                               "dtype: DataType.INT32, numpy dtype is: float32.")


def test_from_tensor_shape_mismatch():
    # sic: Lite's message says "numpy shape" here too (mindspore-lite
    # python/api/tensor.py, Tensor.__init__, Tensor branch)
    source = Tensor(np.zeros((2, 3), np.float32))
    with pytest.raises(TypeError) as info:
        Tensor(source, shape=[6])
    assert str(info.value) == ("user set shape is not equal numpy shape, "
                               "user's shape: [6], tensor shape is: [2, 3].")


def test_from_tensor_dtype_mismatch():
    source = Tensor(np.zeros((2, 3), np.float32))
    with pytest.raises(TypeError) as info:
        Tensor(source, dtype=DataType.FLOAT16)
    assert str(info.value) == ("user set dtype is not equal tensor dtype, user's "
                               "dtype: DataType.FLOAT16, tensor dtype is: "
                               "DataType.FLOAT32.")


@pytest.mark.parametrize("np_type", [np.complex64, np.str_, np.object_])
def test_from_unsupported_numpy_dtype(np_type):
    array = np.zeros(3, dtype=np_type)
    with pytest.raises(TypeError, match="^Unsupported numpy dtype value "):
        Tensor(array)


@pytest.mark.parametrize("value", [[1, 2], 3.0, "abc", (1,)])
def test_tensor_argument_wrong_type(value):
    with pytest.raises(TypeError) as info:
        Tensor(value)
    assert str(info.value) == ("tensor must be MindSpore Lite's Tensor._tensor "
                               f"or numpy ndarray, but got {type(value)}.")


@pytest.mark.parametrize("shape,message", [
    ("23", "shape must be list or tuple, but got <class 'str'>."),
    (5, "shape must be list or tuple, but got <class 'int'>."),
    ([2, "3"], "shape element must be int, but got <class 'str'> at index 1."),
    ((2.0,), "shape element must be int, but got <class 'float'> at index 0."),
])
def test_shape_argument_errors(shape, message):
    with pytest.raises(TypeError) as info:
        Tensor(shape=shape, dtype=DataType.FLOAT32)
    assert str(info.value) == message


def test_dtype_argument_error():
    with pytest.raises(TypeError) as info:
        Tensor(shape=[1], dtype=np.float32)
    assert str(info.value) == "dtype must be DataType, but got <class 'type'>."


@pytest.mark.parametrize("device,message", [
    ("cpu", "now only support ascend device."),
    ("cpu:0", "now only support ascend device."),
    ("gpu", "now only support ascend device."),
    ("ascend:0:1", "device must be 'ascend:index', eg: 'ascend:0'"),
    ("ascend:x", "device id should >= 0."),
    ("ascend:-1", "device id should >= 0."),
    (0, "device must be str, but got <class 'int'>."),
])
def test_device_argument_errors(device, message):
    with pytest.raises(TypeError) as info:
        Tensor(device=device)
    assert str(info.value) == message


def test_checks_run_before_tensor_type_check():
    # shape/device are checked first (check_tensor_input_param), then dtype
    with pytest.raises(TypeError, match="^shape must be list or tuple"):
        Tensor("not a tensor", shape="bad", dtype="bad")
    with pytest.raises(TypeError, match="^dtype must be DataType"):
        Tensor("not a tensor", dtype="bad")


# -- property setters ---------------------------------------------------------------
def test_setters_before_data():
    t = Tensor(shape=[2, 2], dtype=DataType.FLOAT32)
    t.name = "in0"
    t.shape = (4,)
    t.dtype = DataType.INT16
    t.format = Format.NHWC
    assert (t.name, t.shape, t.dtype, t.format) == ("in0", [4], DataType.INT16,
                                                    Format.NHWC)
    assert t.data_size == 8


@pytest.mark.parametrize("attr,value,message", [
    ("name", 1, "name must be str, but got <class 'int'>."),
    ("dtype", "float32", "dtype must be DataType, but got <class 'str'>."),
    ("format", 0, "format must be Format, but got <class 'int'>."),
    ("shape", {2: 3}, "shape must be list or tuple, but got <class 'dict'>."),
    ("shape", [1, None], "shape element must be int, but got <class 'NoneType'> "
                         "at index 1."),
])
def test_setter_type_errors(attr, value, message):
    t = Tensor()
    with pytest.raises(TypeError) as info:
        setattr(t, attr, value)
    assert str(info.value) == message


def test_setters_are_no_ops_after_set_data_from_numpy():
    t = Tensor(shape=[2, 3], dtype=DataType.FLOAT32)
    t.set_data_from_numpy(np.ones((2, 3), np.float32))
    t.shape = [6]
    t.dtype = DataType.INT32
    t.format = Format.NHWC
    assert t.shape == [2, 3]
    assert t.dtype == DataType.FLOAT32
    assert t.format == Format.NCHW
    t.name = "still works"
    assert t.name == "still works"
    # type errors are still raised
    with pytest.raises(TypeError):
        t.shape = "x"


def test_setters_are_no_ops_for_tensor_built_from_numpy():
    t = Tensor(np.zeros((3,), np.int8))
    t.shape = [1, 3]
    t.dtype = DataType.UINT8
    assert t.shape == [3] and t.dtype == DataType.INT8


# -- set_data_from_numpy ------------------------------------------------------------
def test_set_data_from_numpy_not_ndarray():
    t = Tensor(shape=[2], dtype=DataType.FLOAT32)
    with pytest.raises(TypeError) as info:
        t.set_data_from_numpy([1.0, 2.0])
    assert str(info.value) == ("numpy_obj must be numpy.ndarray, but got "
                               "<class 'list'>.")


def test_set_data_from_numpy_unsupported_dtype():
    t = Tensor(shape=[2], dtype=DataType.FLOAT32)
    with pytest.raises(TypeError, match="^Unsupported numpy dtype value complex64"):
        t.set_data_from_numpy(np.zeros(2, np.complex64))


def test_set_data_from_numpy_wrong_dtype():
    t = Tensor(shape=[2, 3], dtype=DataType.FLOAT32)
    with pytest.raises(RuntimeError) as info:
        t.set_data_from_numpy(np.zeros((2, 3), np.float64))
    assert str(info.value) == ("data type not equal! Numpy type: <class "
                               "'numpy.float64'>, Tensor type: DataType.FLOAT32")


def test_set_data_from_numpy_wrong_dtype_same_bytes():
    # dtype is compared before size: int32 and float32 have the same bytes
    t = Tensor(shape=[4], dtype=DataType.FLOAT32)
    with pytest.raises(RuntimeError, match=r"^data type not equal!"):
        t.set_data_from_numpy(np.zeros(4, np.int32))


def test_set_data_from_numpy_wrong_size():
    t = Tensor(shape=[1, 3, 4, 4], dtype=DataType.FLOAT32)
    with pytest.raises(RuntimeError) as info:
        t.set_data_from_numpy(np.zeros(10, np.float32))
    assert str(info.value) == ("data size not equal! Numpy size: 40, Tensor "
                               "size: 192")


def test_set_data_from_numpy_flat_array_keeps_tensor_shape():
    t = Tensor(shape=[1, 3, 4, 4], dtype=DataType.FLOAT32)
    flat = np.arange(48, dtype=np.float32)
    t.set_data_from_numpy(flat)
    assert t.shape == [1, 3, 4, 4]
    data = t.get_data_to_numpy()
    assert data.shape == (1, 3, 4, 4)
    np.testing.assert_array_equal(data, flat.reshape(1, 3, 4, 4))


def test_set_data_from_numpy_other_shape_same_bytes():
    t = Tensor(shape=[2, 6], dtype=DataType.INT16)
    t.set_data_from_numpy(np.arange(12, dtype=np.int16).reshape(3, 4))
    assert t.shape == [2, 6]
    np.testing.assert_array_equal(t.get_data_to_numpy(),
                                  np.arange(12, dtype=np.int16).reshape(2, 6))


def test_set_data_from_numpy_is_zero_copy_both_ways():
    t = Tensor(shape=[2, 2], dtype=DataType.FLOAT32)
    array = np.zeros((2, 2), np.float32)
    t.set_data_from_numpy(array)
    array[0, 1] = 5.0
    assert t.get_data_to_numpy()[0, 1] == 5.0
    t.get_data_to_numpy()[1, 0] = 9.0
    assert array[1, 0] == 9.0


def test_set_data_from_non_contiguous_numpy():
    t = Tensor(shape=[3, 2], dtype=DataType.FLOAT64)
    base = np.arange(12, dtype=np.float64).reshape(3, 4)
    t.set_data_from_numpy(base[:, 1::2])
    np.testing.assert_array_equal(t.get_data_to_numpy(), base[:, 1::2])


def test_set_data_keeps_array_alive():
    t = Tensor(shape=[3], dtype=DataType.INT32)
    t.set_data_from_numpy(np.array([1, 2, 3], np.int32))
    np.testing.assert_array_equal(t.get_data_to_numpy(), [1, 2, 3])


# -- get_data_to_numpy ------------------------------------------------------------
@pytest.mark.parametrize("shape", [[0, 3], [-1, 3], [2, 0]])
def test_get_data_to_numpy_of_empty_or_unknown_shape(shape):
    t = Tensor(shape=shape, dtype=DataType.INT32)
    data = t.get_data_to_numpy()
    assert data.size == 0
    assert data.dtype == np.int32


def test_get_data_to_numpy_float16():
    array = np.array([1.5, -2.0], np.float16)
    t = Tensor(shape=[2], dtype=DataType.FLOAT16)
    t.set_data_from_numpy(array)
    assert t.data_size == 4
    assert t.get_data_to_numpy().dtype == np.float16


# -- element_num / data_size ------------------------------------------------------
@pytest.mark.parametrize("shape,dtype,elements,size", [
    ([], DataType.FLOAT32, 1, 4),
    ([5], DataType.BOOL, 5, 5),
    ([2, 3, 4], DataType.INT64, 24, 192),
    ([1, 3, 224, 224], DataType.FLOAT32, 150528, 602112),
    ([7], DataType.FLOAT16, 7, 14),
    ([0, 4], DataType.FLOAT32, 0, 0),
])
def test_element_num_and_data_size(shape, dtype, elements, size):
    t = Tensor(shape=shape, dtype=dtype)
    assert t.element_num == elements
    assert t.data_size == size


# -- __str__ ---------------------------------------------------------------------
def test_str_format():
    t = Tensor(np.zeros((2, 3), np.int32))
    t.name = "t0"
    assert str(t) == ("name: t0,\ndtype: DataType.INT32,\nshape: [2, 3],\n"
                      "format: Format.NCHW,\nelement_num: 6,\ndata_size: 24.\n"
                      "device: None:-1.")


def test_str_default():
    assert str(Tensor()) == ("name: ,\ndtype: DataType.FLOAT32,\nshape: [],\n"
                             "format: Format.NCHW,\nelement_num: 1,\n"
                             "data_size: 4.\ndevice: None:-1.")


# -- TensorMeta ------------------------------------------------------------------
def test_tensor_meta_defaults():
    meta = TensorMeta()
    assert meta.name == ""
    assert meta.dtype == DataType.UNKNOWN
    assert meta.shape == []
    assert meta.format == Format.DEFAULT
    assert meta.element_num == 0
    assert meta.data_size == 0
    assert str(meta) == ("name: ,\ndtype: DataType.UNKNOWN,\nshape: [],\n"
                         "format: Format.DEFAULT,\nelement_num: 0,\n"
                         "data_size: 0.")


def test_tensor_meta_is_plain_and_unvalidated():
    meta = TensorMeta()
    meta.name, meta.shape, meta.dtype = "out", [2, 3], DataType.FLOAT32
    meta.format, meta.element_num, meta.data_size = Format.NCHW, 6, 24
    meta.anything = 1                      # a plain object: no validation
    assert str(meta) == ("name: out,\ndtype: DataType.FLOAT32,\nshape: [2, 3],\n"
                         "format: Format.NCHW,\nelement_num: 6,\ndata_size: 24.")
    assert mslite.TensorMeta is TensorMeta
