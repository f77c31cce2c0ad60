"""The cuda kernels of the reductions (refinfer/cuda/reduce.py) equal their
NumPy references: any set of axes (contiguous or not, none, all), keep_dims,
0-d and empty inputs, float32, float64, int32 (exact: wrapping sums,
means toward zero) and bool; NaN rules (ReduceMax propagates, the
searches choose a NaN only when first), ties (the first index)."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import reduce

from cuda_check import FLOATS, check, run, values

ids = lambda d: np.dtype(d).name     # noqa: E731
SHAPE = (3, 4, 5)
AXES = [(), (1,), (-1,), (0, 2), (0, 1, 2)]
REDUCTIONS = ["ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
              "ReduceAll", "ReduceAny"]


@pytest.mark.parametrize("dtype", FLOATS + (np.int32,), ids=ids)
@pytest.mark.parametrize("op", REDUCTIONS)
def test_reductions(op, dtype):
    x = values(SHAPE, dtype)
    if op == "ReduceProd":          # products of a few, not overflowing
        x = np.clip(x, -2, 2)
    for axes in AXES:
        for keep in (False, True):
            check(op, x, axes, keep)


@pytest.mark.parametrize("op", ["ReduceSum", "ReduceMax", "ReduceMin",
                                "ReduceProd", "ReduceAll", "ReduceAny"])
def test_bool_reductions(op):
    x = values(SHAPE, np.bool_)
    x[0] = True
    for axes in [(), (1,), (0, 2)]:
        check(op, x, axes, False)


def test_wrapping_sum_and_mean_toward_zero():
    """int8 sums wrap ([100, 100] -> -56); integer means truncate toward
    zero after that sum ([-1, -2, -4] -> -2)."""
    check("ReduceSum", np.array([[100, 100, 1]], np.int8), (1,))
    assert run("ReduceSum", np.array([100, 100], np.int8)).item() == -56
    check("ReduceMean", np.array([[-1, -2, -4], [1, 2, 4]], np.int32), (1,))
    assert list(run("ReduceMean", np.array([[-1, -2, -4]], np.int32), (1,))) == [-2]


def test_float16_sums_in_float32():
    x = np.full(2049, 1.0, np.float16)
    check("ReduceSum", x)
    check("ReduceMean", x)


def test_zero_d_and_empty():
    check("ReduceSum", np.array(2.5, np.float32))
    check("ReduceSum", np.array(2.5, np.float32), (0,), True)
    empty = np.zeros((2, 0), np.float32)
    for op in ("ReduceSum", "ReduceProd", "ReduceMean", "ReduceAll", "ReduceAny"):
        check(op, empty, (1,))
    check("ReduceSum", np.zeros((0, 3), np.float32), (1,))      # no outputs
    assert run("ReduceMax", empty, (1,)) is None                 # the reference raises


def test_skip_mode():
    x = values((2, 3), np.float32)
    check("ReduceSum", x, (), False, True)


def test_nan_rules():
    x = np.array([[1, np.nan, 3], [np.nan, 1, 3], [2, 5, 5], [-np.inf, np.nan, -np.inf]],
                 np.float32)
    for op in ("ReduceMax", "ReduceMin"):
        check(op, x, (1,))
    for op in ("Argmax", "Argmin"):
        check(op, x, 1)
    for op in ("ArgMaxWithValue", "ArgMinWithValue"):
        check(op, x, 1)
    assert list(run("Argmax", x, 1)) == [2, 0, 1, 0]


@pytest.mark.parametrize("dtype", FLOATS + (np.int32,), ids=ids)
def test_searches(dtype):
    x = values((4, 6, 3), dtype)
    x[1, 2:4, 0] = x.max() + 1      # a tie: the first index
    for axis in (0, 1, -1):
        check("Argmax", x, axis)
        check("Argmin", x, axis, np.dtype(np.int64))
        check("ArgMaxWithValue", x, axis, True)
        check("ArgMinWithValue", x, axis)
        check("MaxDim", x, axis, True)
        check("MinDim", x, axis)
    for dim, keep in ((None, False), (None, True), (1, True), (-1, False)):
        check("ArgMaxExt", x, dim, keep)
        check("ArgMinExt", x, dim, keep)
    check("Max", x)
    check("Min", x)
    check("ArgMaxWithValue", np.array(3.0, dtype) if dtype != np.int32
          else np.array(3, dtype), 0)


@pytest.mark.parametrize("op", ["SumExt", "MeanExt", "ProdExt"])
def test_ext_reductions(op):
    x = values(SHAPE, np.float32)
    check(op, x, None)
    check(op, x, (0, 2), True)
    integers = (np.int32, np.int8, np.uint8) + ((np.bool_,) if op != "MeanExt" else ())
    for dtype in integers:
        check(op, values((2, 3), dtype), (1,))      # SumExt, ProdExt: in int64
    check(op, x, None, False, np.dtype(np.float64))     # cast first
    check(op, x * 7, (0, 2), True, np.dtype(np.int32))  # (toward zero)
    check(op, values(SHAPE, np.int32), None, False, np.dtype(np.float16))


def test_ext_reductions_wrap_and_decline():
    """ProdExt of int8 multiplies in int64 (no wrap at 127: the widening is
    real); MeanExt of bool declines (the reference's TypeError)."""
    big = np.full(3, 100, np.int8)
    np.testing.assert_array_equal(run("ProdExt", big), np.int64(10**6))
    assert run("MeanExt", values(SHAPE, np.bool_)) is None
    with pytest.raises(TypeError):
        registry.get_op("MeanExt").reference(values(SHAPE, np.bool_))


@pytest.mark.parametrize("dtype", FLOATS + (np.int32,), ids=ids)
def test_long_axes_take_a_block_each(dtype):
    """Reduced axes of LONG elements or more: a block per output, each
    thread combining several elements before the tree (the sum's order
    differs from NumPy's: the op tolerance), ties and NaN as above."""
    x = values((2, reduce.LONG + 5), dtype)
    x[:, 7] = x[:, 30] = x.max() + 1
    if dtype != np.int32:
        x[0, 0], x[1, 9] = np.nan, np.nan
    for op in ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceAll"):
        check(op, x, (1,))
    for op in ("Argmax", "ArgMinWithValue"):
        check(op, x, 1)
    check("ReduceAny", x > 0, (0, 1))


def test_empty_search_declines():
    assert run("Argmax", np.zeros((2, 0), np.float32), 1) is None


def test_table_is_declared():
    assert all(registry.get_op(op).kernels["cuda"] is kernel
               for op, kernel in reduce.KERNELS.items())
