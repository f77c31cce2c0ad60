"""Scalar and sequence plumbing ops against Python's own operators (the
semantics MindSpore's primitives document: "usage is the same as '+' in
Python") and hand-written expectations for the dtype rules."""
import operator

import numpy as np
import pytest

BINARY = {
    "ScalarAdd": operator.add, "ScalarSub": operator.sub,
    "ScalarMul": operator.mul, "ScalarFloorDiv": operator.floordiv,
    "ScalarMod": operator.mod, "ScalarPow": operator.pow,
    "ScalarMax": max, "ScalarMin": min,
}
COMPARE = {
    "ScalarEq": operator.eq, "ScalarGt": operator.gt, "ScalarLt": operator.lt,
    "ScalarGe": operator.ge, "ScalarLe": operator.le,
}
INT_PAIRS = [(7, 2), (-7, 2), (7, -3), (0, 5), (5, 5), (True, 3)]


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("x,y", INT_PAIRS)
def test_int_arithmetic_is_pythons(call, name, x, y):
    """Python's result; one that Python makes a float (7 ** -3) is float32."""
    got, expected = call(name, x, y), BINARY[name](x, y)
    if isinstance(expected, int):
        assert isinstance(got, int) and got == expected
    else:
        assert type(got) is np.float32 and got == np.float32(expected)


@pytest.mark.parametrize("name", BINARY)
def test_float_results_are_float32(call, name):
    x, y = np.float32(7.5), 2
    got = call(name, x, y)
    assert type(got) is np.float32
    assert got == np.float32(BINARY[name](float(x), float(y)))


@pytest.mark.parametrize("name", ["ScalarAdd", "ScalarMul", "ScalarMax"])
def test_float64_operand_keeps_float64(call, name):
    got = call(name, np.float64(0.1), 3)
    assert type(got) is np.float64
    assert got == BINARY[name](0.1, 3)


def test_max_of_int_and_float_is_a_float(call):
    got = call("ScalarMax", 3, 2.5)
    assert type(got) is np.float32 and got == 3.0


def test_true_division_always_gives_a_float(call):
    assert type(call("ScalarDiv", 6, 3)) is np.float32
    assert call("ScalarDiv", 7, 2) == np.float32(3.5)
    assert call("ScalarDiv", 1, 3) == np.float32(1 / 3)


@pytest.mark.parametrize("name", ["ScalarDiv", "ScalarFloorDiv", "ScalarMod"])
def test_zero_divisor_is_an_error(call, name):
    with pytest.raises(ValueError, match="divisor is zero"):
        call(name, 4, 0)


def test_one_element_tensors_are_unwrapped(call):
    assert call("ScalarAdd", np.array(2, np.int32), np.array([3], np.int64)) == 5
    with pytest.raises(ValueError, match="expected a scalar"):
        call("ScalarAdd", np.array([1, 2]), 1)
    with pytest.raises(TypeError, match="expected a scalar, got str"):
        call("ScalarMul", "a", 2)


@pytest.mark.parametrize("name", COMPARE)
@pytest.mark.parametrize("x,y", [(2, 3), (3, 3), (4, 3), (2, 2.0), (np.float32(2.5), 2)])
def test_comparisons_are_pythons(call, name, x, y):
    got = call(name, x, y)
    assert type(got) is bool and got == COMPARE[name](x, y)


@pytest.mark.parametrize("x", [0, 3, -1, True, False, 0.0, np.float32(0.5)])
def test_unary_ops(call, x):
    assert call("BoolNot", x) is (not x)
    assert call("ScalarBool", x) is bool(x)
    assert call("ScalarUsub", x) == -x and call("ScalarUadd", x) == +x
    if isinstance(x, int):  # bools included: -True = -1
        assert type(call("ScalarUsub", x)) is int


@pytest.mark.parametrize("value,type_id,expected", [
    (2.7, 35, 2), (-2.7, 35, -2), (True, 35, 1), (3, 43, np.float32(3.0)),
    (0.1, 44, np.float64(0.1)), (0, 30, False), (0.5, 30, True),
    (7, 34, 7),
])
def test_scalar_cast(call, value, type_id, expected):
    got = call("ScalarCast", value, type_id)
    assert type(got) is type(expected) and got == expected


@pytest.mark.parametrize("value,type_id,expected", [
    (3, 35, np.int64(3)), (3, 43, np.float32(3)), (2.7, 34, np.int32(2)),
    (-2.7, 37, np.uint8(254)),  # truncate toward zero, then wrap (Cast)
    (True, 43, np.float32(1)), (np.float32(1.5), 42, np.float16(1.5)),
])
def test_scalar_to_tensor_converts_like_cast(call, value, type_id, expected):
    got = call("ScalarToTensor", value, type_id)
    assert got.shape == () and got.dtype == expected.dtype and got == expected


def test_scalar_to_tensor_default_dtype_is_float32(call):
    got = call("ScalarToTensor", 5)
    assert got.dtype == np.float32 and got == 5


@pytest.mark.parametrize("array,expected,kind", [
    (np.array(3, np.int32), 3, int), (np.array([True]), True, bool),
    (np.array(2.5, np.float32), np.float32(2.5), np.float32),
    (np.array(0.1, np.float64), np.float64(0.1), np.float64),
])
def test_tensor_to_scalar(call, array, expected, kind):
    got = call("TensorToScalar", array)
    assert type(got) is kind and got == expected


def test_tensor_to_tuple_and_list(call):
    v = np.array([3, -2, 5], np.int32)
    assert call("TensorToTuple", v) == (3, -2, 5)
    assert call("TensorToList", v) == [3, -2, 5]
    assert all(type(e) is int for e in call("TensorToTuple", v))
    floats = call("TensorToTuple", np.array([0.5, 1.5], np.float16))
    assert [type(e) for e in floats] == [np.float16, np.float16]
    assert call("TensorToTuple", np.zeros((0,), np.int64)) == ()
    with pytest.raises(ValueError, match="1-D"):
        call("TensorToTuple", np.zeros((2, 2)))


@pytest.mark.parametrize("name", ["TupleToTensor", "ListToTensor"])
def test_sequence_to_tensor(call, name):
    got = call(name, (2, 3, np.int64(4)), 34)
    assert got.dtype == np.int32 and got.tolist() == [2, 3, 4]
    got = call(name, [1.7, -1.7], np.dtype(np.int32))
    assert got.tolist() == [1, -1]
    got = call(name, (), 43)
    assert got.shape == (0,) and got.dtype == np.float32
    assert call(name, (1, 2)).dtype == np.float32  # default dtype


@pytest.mark.parametrize("name", ["list_setitem", "tuple_setitem"])
def test_set_item_returns_a_changed_copy(call, name):
    sequence = [1, 2, 3] if name == "list_setitem" else (1, 2, 3)
    got = call(name, sequence, -1, 9)
    assert type(got) is type(sequence) and list(got) == [1, 2, 9]
    assert list(sequence) == [1, 2, 3]
    assert list(call(name, sequence, np.array(0), 7)) == [7, 2, 3]


@pytest.mark.parametrize("shape", [(), (0, 3), (2, 3, 4)])
def test_size(call, shape):
    got = call("Size", np.zeros(shape, np.float32))
    assert type(got) is int and got == int(np.prod(shape))


@pytest.mark.parametrize("name, args", [
    ("TupleGetItem", ((1, 2), 2)), ("list_getitem", ([1, 2], -3)),
    ("list_setitem", ([0, 0, 0], 2147483648, 0))])
def test_an_index_out_of_range_names_the_op_and_the_length(call, name, args):
    # fuzz corpus cases 707 and 1202 (issue 17): NumPy-less IndexErrors
    # that named neither
    with pytest.raises(IndexError, match=r"index -?\d+ out of range for a "
                                         r"sequence of [23]"):
        call(name, *args)


def test_get_item_of_something_not_a_sequence_is_a_clear_error(call):
    with pytest.raises(TypeError, match="TupleGetItem: expected a tuple or a "
                                        r"list, got float32\[2\]"):
        call("TupleGetItem", np.zeros(2, np.float32), 0)
