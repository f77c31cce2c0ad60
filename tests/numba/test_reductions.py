"""The reduction, arg-search, scan, selection and sorting kernels
(refinfer/ops/_kernels/reduce.py) equal their NumPy references: row (lane) and
middle-axis layouts, non-adjacent and narrow axes (transposed), several
column blocks, ties, NaN / inf / -0.0, integer dtypes, and the
inputs handed back to the reference (float16, bool, int8, empty, 0-d)."""
import numpy as np
import pytest

from kernel_check import FLOATS, check, normal, rng

# Std over one element with the correction: NumPy's reference warns, both give NaN.
pytestmark = pytest.mark.filterwarnings("ignore:Degrees of freedom <= 0")

FLOAT_REDUCTIONS = ("Nansum", "LogSumExp", "Std", "ReduceStd")
SEARCH = ("Argmax", "Argmin", "ArgMaxExt", "ArgMinExt", "ArgMaxWithValue", "ArgMinWithValue",
          "MaxDim", "MinDim")
SCANS = ("CumSum", "CumProd", "CumsumExt", "Cummax", "Cummin")
SORTS = ("Sort", "SortExt", "ArgSort")
TESTED = {*FLOAT_REDUCTIONS, *SEARCH, *SCANS, *SORTS, "Max", "Min", "ReduceProd", "ProdExt",
          "LogSoftmaxExt", "Median", "MedianExt", "TopK", "TopkExt", "SearchSorted"}
INTS = (np.int32, np.int64)

# (shape, axes): rows longer than the lanes (with a tail) and shorter; middle axes,
# with two column blocks; non-adjacent axes and a narrow inner part (transposed);
# size-1 axes between reduced ones; every axis.
LAYOUTS = [((6, 300), (1,)), ((4, 70), (-1,)), ((3, 5, 7), (1,)), ((2, 3, 1100), (0,)),
           ((4, 3, 2, 5), (0, 2)), ((7, 40, 2), (1,)), ((3, 1, 4), (0, 2)), ((5, 3, 6), (0, 1)),
           ((9,), ()), ((2, 3), (0, 1))]


def sample(shape, dtype, low=-4, high=4):
    """Random values of dtype: small integers (ties) or normal floats."""
    if np.dtype(dtype).kind == "f":
        return normal(shape, dtype, scale=2.0)
    if dtype == np.bool_:
        return rng.random(shape) < 0.8
    return rng.integers(low, high, shape).astype(dtype)


def with_specials(x):
    """x (float) with NaN, inf and -0.0 at a few positions."""
    flat = x.reshape(-1)
    for value, at in ((np.nan, 3), (np.inf, 7), (-np.inf, 11), (-0.0, 1), (0.0, 2)):
        flat[at % flat.size] = value
    return x


# -- reductions -----------------------------------------------------------------------------------
@pytest.mark.parametrize("shape,axes", LAYOUTS, ids=str)
@pytest.mark.parametrize("dtype", FLOATS + INTS + (np.bool_,))
def test_products(shape, axes, dtype):
    x = sample(shape, dtype)
    near_one = (1 + 0.01 * normal(shape)).astype(dtype) if x.dtype.kind == "f" else x
    for keep in (False, True):
        check("ReduceProd", near_one, axes, keep)      # bool: np.all, the reference


def test_products_special_values_and_fallbacks():
    x = with_specials(normal((5, 300)))
    for axes in ((1,), (0,), ()):
        check("ReduceProd", x, axes, True)
    wrap = np.full((2, 40), 3, np.int32)        # 3 ** 40 wraps
    check("ReduceProd", wrap, (1,), False)
    for fallback in (normal((4, 5), np.float16), rng.integers(-3, 3, (4, 5)).astype(np.int8),
                     rng.integers(0, 3, (4, 5)).astype(np.uint8), np.zeros((0, 3), np.float32),
                     np.array(2.5, np.float32)):
        check("ReduceProd", fallback, (), False)


@pytest.mark.parametrize("shape,axes", LAYOUTS, ids=str)
@pytest.mark.parametrize("dtype", FLOATS)
def test_float_reductions(shape, axes, dtype):
    # Sums that do not cancel: near 0 the reference's float32 rounding exceeds the tolerance.
    x = normal(shape, dtype, scale=2.0, shift=3.0)
    for keep in (False, True):
        check("Nansum", x, axes, keep, None)
        check("LogSumExp", x, axes, keep)
        check("ReduceStd", x, axes, True, keep)
        check("ReduceStd", x, axes, False, keep)
        check("Std", x, axes, 2, keep)


def test_float_reductions_special_values_and_fallbacks():
    x = with_specials(normal((4, 300), shift=3.0))
    check("Nansum", x, (1,), False, None)
    check("Nansum", x, (0,), False, np.dtype(np.float64))
    check("Nansum", x, None, True, np.dtype(np.int32))       # through the reference
    check("Nansum", rng.integers(0, 9, (3, 4)).astype(np.int32), (1,), False, None)
    check("LogSumExp", x, (1,), False)
    big = np.array([[1000.0, 1000.0], [-np.inf, -np.inf], [np.inf, 1.0]], np.float32)
    check("LogSumExp", big, (1,), False)
    check("LogSumExp", big, (0,), True)
    check("Std", normal((3, 1)), (1,), 1, False)          # n - correction = 0: NaN
    check("Std", normal((3, 2)), (1,), 3, False)          # negative divisor: inf
    check("Std", normal((300,)), None, 0.5, False)
    check("ReduceStd", x, (), True, False)
    for fallback in (normal((4, 5), np.float16), np.zeros((0, 3), np.float32)):
        check("LogSumExp", fallback, (1,), False)
        check("ReduceStd", fallback, (1,), True, False)


@pytest.mark.parametrize("dtype,dim", [(np.int32, None), (np.bool_, 1), (np.float32, 0),
                                       (np.float64, None), (np.int8, -1)])
def test_prod_ext(dtype, dim):
    x = sample((6, 50), dtype, -2, 3)
    x = (1 + 0.02 * normal(x.shape)).astype(dtype) if x.dtype.kind == "f" else x
    for keep in (False, True):
        check("ProdExt", x, dim, keep, None)
    check("ProdExt", x, dim, False, np.dtype(np.float64))
    check("ProdExt", x, dim, False, np.dtype(np.float16))


@pytest.mark.parametrize("shape,dim", [((4, 300), None), ((4, 300), 1), ((2, 6, 3, 5), 1),
                                       ((3, 5, 4), None), ((7,), 0), ((2, 1100, 2), 1)], ids=str)
@pytest.mark.parametrize("dtype", FLOATS)
def test_log_softmax_ext(shape, dim, dtype):
    x = normal(shape, dtype, scale=3.0)
    check("LogSoftmaxExt", x, dim, None)
    check("LogSoftmaxExt", with_specials(x.copy()), dim, None)
    check("LogSoftmaxExt", x.astype(np.float16), dim, np.dtype(dtype))


def test_log_softmax_ext_fallbacks():
    check("LogSoftmaxExt", normal((3, 4), np.float16), 1, None)
    check("LogSoftmaxExt", np.array(1.5, np.float32), None, None)


# -- arg-search -----------------------------------------------------------------------------------
NAN_ROWS = np.array([[np.nan, 1, 3], [1, np.nan, 3], [3, np.nan, 1], [2, 5, 5],
                     [-0.0, 0.0, -1], [np.nan, np.nan, np.nan]], np.float32)


def search_all(x, axis):
    for op in ("Argmax", "Argmin"):
        check(op, x, axis, np.dtype(np.int32))
        check(op, x, axis, np.dtype(np.int64))
    for op in ("ArgMaxExt", "ArgMinExt"):
        check(op, x, axis, False)
        check(op, x, None, True)
    for op in ("ArgMaxWithValue", "ArgMinWithValue", "MaxDim", "MinDim"):
        check(op, x, axis, False)
        check(op, x, axis, True)


@pytest.mark.parametrize("shape", [(5, 300), (3, 4, 5), (2, 1100, 3), (2, 3, 1100), (70,)],
                         ids=str)
@pytest.mark.parametrize("dtype", FLOATS + INTS + (np.bool_,))
def test_arg_search(shape, dtype):
    x = sample(shape, dtype)
    for axis in range(-x.ndim, x.ndim):
        search_all(x, axis)
    check("Max", x)
    check("Min", x)


def test_arg_search_nan_and_tie_rules():
    rows = np.repeat(NAN_ROWS, 50, axis=1)     # long rows: several lanes
    for x in (NAN_ROWS, rows, NAN_ROWS.astype(np.float64)):
        for axis in (0, 1):
            search_all(x, axis)
        check("Max", x)
        check("Min", x)
    late = normal((4, 500))
    late[:, 400] = np.nan                       # NaN in a later lane
    late[0, 0] = np.nan                         # NaN first: the answer
    late[2, 300:] = late[2].max()               # ties: the first one
    search_all(late, 1)
    search_all(late.T.copy(), 0)


def test_arg_search_fallbacks():
    check("Argmax", normal((3, 4), np.float16), 1, np.dtype(np.int32))
    check("Argmax", rng.integers(-3, 3, (3, 4)).astype(np.int8), 0, np.dtype(np.int64))
    check("Argmax", np.array(7.0, np.float32), -1, np.dtype(np.int64))
    check("Argmax", np.zeros((2, 0), np.float32), 1, np.dtype(np.int64))   # raises
    check("ArgMaxWithValue", normal((2, 3)), 2, False)                     # raises
    check("Max", np.array(3.0, np.float32))
    check("Min", normal((4, 5), np.float16))


# -- scans -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(4, 300), (3, 5, 7), (2, 6, 1100), (9,)], ids=str)
@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_scans(shape, dtype):
    x = sample(shape, dtype, -3, 4)
    near_one = (1 + 0.01 * normal(shape)).astype(dtype) if x.dtype.kind == "f" else x
    for axis in range(-x.ndim, x.ndim):
        for exclusive in (False, True):
            for reverse in (False, True):
                check("CumSum", x, axis, exclusive, reverse)
                check("CumProd", near_one, axis, exclusive, reverse)
        check("CumsumExt", x, axis, None)
        check("Cummax", x, axis)
        check("Cummin", x, axis)


def test_scans_special_values_and_fallbacks():
    x = with_specials(normal((3, 40)))
    for axis in (0, 1):
        check("CumSum", x, axis, False, False)
        check("Cummax", x, axis)
        check("Cummin", x, axis)
    check("Cummax", NAN_ROWS, 1)
    check("CumSum", np.full((2, 50), 100, np.int32) * 10**7, 1, False, False)   # wraps
    check("CumsumExt", rng.integers(-3, 3, (4, 5)).astype(np.int8), 1, None)    # -> int64
    check("CumsumExt", rng.random((4, 5)) < 0.5, 0, None)
    check("CumsumExt", normal((4, 5)), 1, np.dtype(np.float64))
    for fallback in (normal((4, 5), np.float16), rng.integers(0, 9, (4, 5)).astype(np.uint8),
                     np.zeros((0, 3), np.float32), np.array(2.0, np.float32)):
        check("CumSum", fallback, 0, True, False)
        check("Cummax", fallback, 0)


# -- selection and sorting -------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(4, 301), (3, 6, 5), (50,)], ids=str)
@pytest.mark.parametrize("dtype", FLOATS + INTS)   # integers: the reference
def test_median(shape, dtype):
    for x in (sample(shape, dtype, -3, 3), sample(shape, dtype, -10**6, 10**6)):
        for axis in range(x.ndim):
            for keep in (False, True):
                check("Median", x, False, axis, keep, False)
        check("Median", x, True, 0, False, False)
        check("MedianExt", x)


def test_median_special_values_and_fallbacks():
    x = with_specials(normal((5, 41)))
    x[2, :30] = np.nan                      # the median is NaN
    check("Median", x, False, 1, False, False)
    check("Median", x, True, 0, False, False)
    check("Median", NAN_ROWS, False, 1, True, False)
    check("Median", x, False, 1, False, True)                     # ignore_nan: raises
    check("MedianExt", normal((4, 5), np.float16))
    check("MedianExt", rng.integers(-3, 3, (6,)).astype(np.int16))
    check("Median", np.zeros((0, 3), np.float32), False, 0, False, False)


@pytest.mark.parametrize("shape", [(4, 300), (3, 7, 5), (150,)], ids=str)
@pytest.mark.parametrize("dtype", FLOATS + INTS)   # integers: the reference
def test_top_k(shape, dtype):
    for x in (sample(shape, dtype, -3, 3), sample(shape, dtype, -10**6, 10**6)):
        n = x.shape[-1]
        for k in sorted({1, 3, min(n, 100), n}):       # 100 of 150 and all: the sort path
            check("TopK", x, k, True)
        for dim in range(-x.ndim, x.ndim):
            for largest in (True, False):
                check("TopkExt", x, min(5, x.shape[dim]), dim, largest, True)


def test_top_k_special_values_and_fallbacks():
    x = with_specials(normal((3, 200)))
    x[1, 50:60] = np.nan
    for k in (1, 12, 200):
        check("TopK", x, k, True)
        check("TopkExt", x, k, 1, False, True)
    check("TopK", NAN_ROWS, 2, True)
    check("TopK", normal((2, 3)), 0, True)
    check("TopK", normal((2, 3)), 4, True)                         # raises
    check("TopK", normal((2, 30), np.float16), 3, True)


@pytest.mark.parametrize("shape", [(4, 20), (3, 500), (2, 40, 3), (1000,)], ids=str)
@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_sorts(shape, dtype):
    for x in (sample(shape, dtype, -3, 3), sample(shape, dtype, -10**9, 10**9)):
        for axis in range(-x.ndim, x.ndim):
            for descending in (False, True):
                check("Sort", x, axis, descending)
                check("SortExt", x, axis, descending, False)
                check("ArgSort", x, axis, descending, False)


def test_sorts_special_values_and_fallbacks():
    for n in (20, 300):          # insertion and radix sort
        x = with_specials(normal((3, n), np.float64))
        x[0, 5:9] = np.nan
        x[1, ::3] = -0.0
        for descending in (False, True):
            check("Sort", x, 1, descending)
            check("ArgSort", x.astype(np.float32), -1, descending, False)
    check("Sort", np.array([[2**31 - 1, -2**31, 0, -1] * 10]), 1, True)
    check("Sort", normal((3, 5), np.float16), 1, False)
    check("Sort", rng.integers(0, 9, (3, 5)).astype(np.uint8), 1, False)
    check("Sort", np.array(1.0, np.float32), 0, False)


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_search_sorted(dtype):
    seq = np.sort(sample((200,), dtype, -50, 50))
    values = sample((3, 40), dtype, -60, 60)
    for right in (False, True):
        check("SearchSorted", seq, values, None, np.dtype(np.int64), right)
        check("SearchSorted", seq, values, None, np.dtype(np.int32), right)
        rows = np.sort(sample((3, 50), dtype, -50, 50), axis=-1)
        check("SearchSorted", rows, values, None, np.dtype(np.int64), right)
        order = np.argsort(seq[::-1], kind="stable")
        check("SearchSorted", seq[::-1].copy(), values, order, np.dtype(np.int64), right)


def test_search_sorted_special_values_and_fallbacks():
    seq = np.array([-np.inf, -1.0, 0.0, 0.0, 2.0, np.inf, np.nan, np.nan], np.float32)
    values = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 5.0], np.float32)
    for right in (False, True):
        check("SearchSorted", seq, values, None, np.dtype(np.int64), right)
    check("SearchSorted", seq, values.astype(np.float64), None, np.dtype(np.int64), False)
    check("SearchSorted", seq, np.array(1.0, np.float32), None, np.dtype(np.int64), False)
    check("SearchSorted", seq.astype(np.float16), values.astype(np.float16), None,
          np.dtype(np.int64), True)
