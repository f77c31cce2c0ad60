"""The cuda kernels of the comparisons and logical ops (refinfer/cuda/
logic.py) equal their NumPy references: same-shape and broadcast
operands, Python numbers (an int wrapping into a uint8 tensor's dtype),
NaN, infinities and signed zeros; float32, float64, float16, int8,
int32, uint8 and bool, tensors of two dtypes and a float beside an integer
tensor (promoted as the reference, cast on the device), the float tests
of integers (constants). Declined: complex operands, shapes that do not
broadcast."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import logic

from cuda_check import FLOATS, check, run, values

ids = lambda d: np.dtype(d).name     # noqa: E731
COMPARISONS = ["Greater", "GreaterEqual", "Less", "LessEqual", "Equal", "NotEqual"]
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.5], np.float32)


@pytest.mark.parametrize("dtype", FLOATS + (np.float16, np.int8, np.int32, np.bool_),
                         ids=ids)
@pytest.mark.parametrize("op", COMPARISONS)
def test_comparisons(op, dtype):
    check(op, values((3, 4), dtype), values((3, 4), dtype))
    check(op, values((2, 1, 4), dtype), values((3, 1), dtype))


@pytest.mark.parametrize("op", COMPARISONS)
def test_comparisons_with_numbers_and_special_values(op):
    check(op, SPECIAL[:, None], SPECIAL[None, :])
    check(op, values((2, 3), np.float32), 0.25)
    check(op, 1, values((2, 3), np.int32))
    check(op, np.array([0, 1, 255], np.uint8), -1)          # -1 wraps to 255


@pytest.mark.parametrize("op", COMPARISONS)
def test_comparisons_of_two_dtypes(op):
    """Promoted as the reference: int32 beside float32 or float16 (cast to
    the float), int8 beside int64, bool beside uint8, a float number beside
    integers (both float32: 2**24 + 1 rounds to 2**24)."""
    ints = np.array([[-3, 0, 2, 16777217]], np.int32)
    check(op, ints, values((2, 4), np.float32))
    check(op, values((2, 4), np.float16), ints)
    check(op, values((2, 4), np.int8), values((4,), np.int64))
    check(op, values((2, 4), np.bool_), values((2, 4), np.uint8))
    check(op, ints, 2.5)
    check(op, 16777216.0, ints)


@pytest.mark.parametrize("op", ["LogicalAnd", "LogicalOr", "LogicalXor"])
def test_logical(op):
    check(op, values((3, 4), np.bool_), values((3, 4), np.bool_))
    check(op, values((2, 3), np.int32), SPECIAL[:3])        # any dtypes, NaN is True


def test_logical_not_and_float_tests():
    for x in (SPECIAL, values((2, 3), np.float64)):
        for op in ("LogicalNot", "IsNan", "IsInf", "IsFinite", "IsNegInf"):
            check(op, x)
    check("LogicalNot", values((2, 3), np.int32))
    check("LogicalNot", values((2, 3), np.bool_))
    check("IsNan", SPECIAL.astype(np.float16))
    for dtype in (np.int32, np.uint8, np.bool_):    # the reference's constants
        for op in ("IsNan", "IsInf", "IsFinite", "IsNegInf"):
            check(op, values((2, 3), dtype))
    np.testing.assert_array_equal(run("IsFinite", values((2, 3), np.int32)),
                                  np.ones((2, 3), bool))


def test_declines():
    complex_ = np.ones((2, 3), np.complex64)
    assert run("Greater", complex_.real, complex_) is None
    assert run("IsNan", complex_) is None
    assert run("Equal", values((2, 3), np.float32), values((4,), np.float32)) is None


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_check_numerics(dtype):
    x = values((3, 4), dtype)
    check("CheckNumerics", x)
    check("CheckNumerics", np.zeros((0, 2), dtype))
    for special in (np.nan, np.inf, -np.inf):
        bad = x.copy()
        bad[2, 1] = special
        with pytest.raises(ValueError, match=r"1 NaN or infinite value\(s\).* at \(2, 1\)"):
            registry.get_op("CheckNumerics").reference(bad)
        assert run("CheckNumerics", bad) is None           # declined: the CPU raises
        assert run("CheckNumerics", bad.astype(np.float16)) is None
    check("CheckNumerics", x.astype(np.float16))
    check("CheckNumerics", values((3, 4), np.int32))


def test_table_size():
    assert len(logic.KERNELS) == 15
