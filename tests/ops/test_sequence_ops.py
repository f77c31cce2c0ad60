"""The tuple, list and scalar primitives graph mode exports for Python
containers and shape arithmetic (issue 14) against Python's own operators,
the semantics MindSpore's primitives document. The golden cases tuple_ops,
list_ops, ctrl_scan and ctrl_foriloop run them in MindSpore's graphs."""
import operator

import numpy as np
import pytest

COMPARISONS = {"equal": operator.eq, "lt": operator.lt, "le": operator.le,
               "greater_than": operator.gt, "greater_equal": operator.ge}
PAIRS = [((3, 1, 4), (3, 1, 5)), ((3, 1, 4), (3, 1, 4)), ((3, 1), (3, 1, 0)),
         ((), ()), ((2,), ()), ((5, 0), (4, 9))]


@pytest.mark.parametrize("kind", [tuple, list])
@pytest.mark.parametrize("suffix", COMPARISONS)
@pytest.mark.parametrize("x,y", PAIRS)
def test_comparisons_are_pythons(call, kind, suffix, x, y):
    name = f"{kind.__name__}_{suffix}"
    got = call(name, kind(x), kind(y))
    assert got is COMPARISONS[suffix](kind(x), kind(y))


def test_equality_compares_tensors_by_shape_and_values(call):
    a = (np.array([1, 2]), 3)
    assert call("tuple_equal", a, (np.array([1, 2]), 3)) is True
    assert call("tuple_equal", a, (np.array([1, 3]), 3)) is False
    assert call("tuple_equal", a, (np.array([[1, 2]]), 3)) is False
    assert call("list_lt", [np.array(2)], [3]) is True   # one element: its value
    with pytest.raises(ValueError, match="expected a scalar"):
        call("tuple_lt", (np.array([1, 2]),), (np.array([1, 3]),))


@pytest.mark.parametrize("seq", [(3, 1, 4, 1, 5), [2, 7], ()])
def test_length_count_membership(call, seq):
    assert call("sequence_len", seq) == len(seq)
    assert call("SequenceCount", seq, 1) == seq.count(1)
    assert call("InSequence", 1, seq) is (1 in seq)
    assert call("InSequence", np.array(7), seq) is (7 in seq)


def test_count_and_membership_of_tensors(call):
    seq = [np.array([1, 2]), np.array([1, 2]), np.array([3])]
    assert call("SequenceCount", seq, np.array([1, 2])) == 2
    assert call("InSequence", np.array([3]), seq) is True
    assert call("InSequence", np.array([2, 1]), seq) is False


@pytest.mark.parametrize("start,end,expected", [(0, 5, 2), (3, 5, 4), (-3, 6, 2),
                                                (0, 100, 2)])
def test_index_searches_between_start_and_end(call, start, end, expected):
    seq = (3, 1, 4, 1, 4)
    assert call("SequenceIndex", seq, 4, start, end) == expected
    assert expected == seq.index(4, start, end)


def test_index_of_a_missing_value_is_an_error(call):
    with pytest.raises(ValueError, match="SequenceIndex: 9 is not in the sequence of "
                       "3 element"):
        call("SequenceIndex", (1, 2, 3), 9, 0, 3)
    with pytest.raises(ValueError, match="between 0 and 1"):
        call("SequenceIndex", (1, 2, 3), 3, 0, 1)


@pytest.mark.parametrize("seq", [(3, 1, 4, 1, 5), [np.float32(2.5), -1, 7], (True, 3)])
def test_max_min(call, seq):
    assert call("SequenceMax", seq) == max(seq)
    assert call("SequenceMin", seq) == min(seq)


@pytest.mark.parametrize("name", ["SequenceMax", "SequenceMin", "SequenceAddN",
                                  "SequenceStack"])
def test_reducing_an_empty_sequence_is_an_error(call, name):
    with pytest.raises(ValueError, match=f"{name}: the sequence is empty"):
        call(name, ())


def test_add_slice_mul_keep_the_kind(call):
    assert call("SequenceAdd", (1, 2), (3,)) == (1, 2, 3)
    assert call("SequenceAdd", [1], [2, 3]) == [1, 2, 3]
    assert call("SequenceSlice", (3, 1, 4, 1, 5), 1, 5, 2) == (1, 1)
    assert call("SequenceSlice", [3, 1, 4], -1, -4, -1) == [4, 1, 3]
    assert call("SequenceSlice", (3, 1), 5, 9, 1) == ()
    assert call("SequenceMul", (1, 2), 3) == (1, 2, 1, 2, 1, 2)
    assert call("SequenceMul", [4], np.array(2)) == [4, 4]
    assert call("SequenceMul", (1, 2), 0) == ()
    with pytest.raises(ValueError, match="step must not be 0"):
        call("SequenceSlice", (1, 2), 0, 2, 0)


def test_add_offset(call):
    assert call("SequenceAddOffset", (4, 5, 6), (7,)) == (0, 3)


def test_zeros_like_keeps_each_elements_type(call):
    got = call("SequenceZerosLike", (3, True, np.float32(2.5), np.ones((2,), np.int8)))
    assert [type(v) for v in got[:3]] == [int, bool, np.float32]
    assert got[:3] == (0, False, 0.0)
    assert got[3].dtype == np.int8 and got[3].tolist() == [0, 0]
    assert call("SequenceZerosLike", [1, [2, 3]]) == [0, [0, 0]]


def test_list_append_and_insert_return_new_lists(call):
    items = [1, 2]
    assert call("ListAppend", items, 9) == [1, 2, 9]
    assert call("ListInsert", items, 1, 7) == [1, 7, 2]
    assert call("ListInsert", items, -1, 7) == [1, 7, 2]
    assert call("ListInsert", items, 10, 7) == [1, 2, 7]
    assert items == [1, 2]


@pytest.mark.parametrize("args", [(0, 5, 1), (1, 5, 2), (5, 0, -2), (-3, 3, 4)])
def test_make_range_is_pythons_range(call, args):
    got = call("make_range", *args)
    assert got == tuple(range(*args))


@pytest.mark.parametrize("args", [(3, 3, 1), (5, 0, 1), (0, 5, -1)])
def test_make_range_refuses_an_empty_range(call, args):
    """MindSpore's make_range raises where Python's range would be empty."""
    with pytest.raises(ValueError, match=r"make_range: range\(.*\) is empty"):
        call("make_range", *args)
    with pytest.raises(ValueError, match="delta must not be 0"):
        call("make_range", 0, 3, 0)


@pytest.mark.parametrize("shape,expected", [((2, 3, 4), 24), ((), 1), ((5, 0), 0)])
def test_shape_mul(call, shape, expected):
    got = call("shape_mul", shape)
    assert type(got) is int and got == expected


@pytest.mark.parametrize("x,y", [(5, 6), (12, 10), (True, False), (True, 3), (-4, 7)])
def test_bit_and_or_are_pythons(call, x, y):
    assert call("bit_and", x, y) == (x & y) and type(call("bit_and", x, y)) is type(x & y)
    assert call("bit_or", x, y) == (x | y) and type(call("bit_or", x, y)) is type(x | y)


def test_bool_not_is_boolnot(call):
    assert call("bool_not", 0) is True and call("bool_not", True) is False


def test_add_n_stack_unstack(call):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.full((2, 3), 0.5, np.float32)
    total = call("SequenceAddN", [a, b, b])
    assert total.dtype == np.float32 and np.array_equal(total, a + 1.0)
    assert not np.shares_memory(call("SequenceAddN", (a,)), a)
    stacked = call("SequenceStack", (a, b), 1)
    assert stacked.shape == (2, 2, 3) and np.array_equal(stacked, np.stack((a, b), 1))
    parts = call("SequenceUnstack", a, 1)
    assert isinstance(parts, tuple) and len(parts) == 3
    assert [p.tolist() for p in parts] == [[0, 3], [1, 4], [2, 5]]
    with pytest.raises(ValueError, match="rank >= 1"):
        call("SequenceUnstack", np.float32(1.0))


@pytest.mark.parametrize("x,kind", [(3, np.float32), (np.float32(0.5), np.float32),
                                    (np.float64(2.0), np.float64), (True, np.float32)])
def test_scalar_log(call, x, kind):
    got = call("ScalarLog", x)
    assert type(got) is kind and got == kind(np.log(float(x)))


@pytest.mark.parametrize("x", [0, -1.5])
def test_scalar_log_of_a_non_positive_value_is_an_error(call, x):
    with pytest.raises(ValueError, match=f"ScalarLog: x must be positive, got {x}"):
        call("ScalarLog", x)
