"""The cuda kernels of Sort, SortExt, ArgSort, TopK, TopkExt, NthElement,
Median, MedianExt and the searches (refinfer/cuda/sort.py)
equal their NumPy references exactly: ties in index order both ways, NaN
last ascending and first descending, every axis, k from 0 to the length;
what they decline runs the reference, error included."""
import numpy as np
import pytest
from test_cuda_elementwise import check, on_device

from refinfer.cuda import sort

rng = np.random.default_rng(1343)
DTYPES = (np.float32, np.float64, np.int32, np.uint8)


def _values(shape, dtype):
    """Few distinct values, so rows have ties."""
    values = rng.integers(0, 5, shape).astype(dtype)
    if np.dtype(dtype).kind == "f":
        values.flat[::7] = np.nan
        values.flat[1::9] = -np.inf
    return values


def test_every_kernel_is_tested():
    assert set(sort.KERNELS) == {"Sort", "SortExt", "ArgSort", "TopK", "TopkExt",
                                 "NthElement", "SearchSorted", "LowerBound",
                                 "UpperBound", "Median", "MedianExt"}


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_sorts(dtype):
    x = _values((3, 6, 2), dtype)
    for axis in (0, 1, -1):
        for descending in (False, True):
            check("Sort", x, axis, descending)
            check("ArgSort", x, axis, descending)
            check("SortExt", x, axis, descending)
    check("Sort", np.asarray(_values((), dtype)), 0)
    check("Sort", x, 3)                                       # no such axis


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_top_k(dtype):
    x = _values((4, 5), dtype)
    for k in (0, 1, 3, 5):
        check("TopK", x, k)
        for largest in (True, False):
            check("TopkExt", x, k, 0 if k < 4 else 1, largest)
    check("TopK", x, 6)                                       # k past the axis


def test_declines():
    half = on_device((np.ones((2, 3), np.float16),))
    assert sort.ranked(*half, -1, False, None, np.int32) is None   # (half.py casts)
    assert sort.KERNELS["SearchSorted"](*half, half[0], None, np.dtype(np.int64),
                                        False) is None
    assert sort.KERNELS["TopK"](*on_device((np.ones((), np.float32),)), 1) is None


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_search_sorted(dtype):
    rows = np.sort(_values((2, 3, 6), dtype), axis=-1)
    queries = _values((2, 3, 4), dtype)
    for right in (False, True):
        check("SearchSorted", rows[0, 0].copy(), queries, None, np.dtype(np.int64), right)
        check("SearchSorted", rows, queries, None, np.dtype(np.int32), right)
    sorter = (rows[0, 0].copy(), queries[0, 0].copy(), np.arange(6))
    assert sort.search_sorted(*on_device(sorter)) is None


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_median(dtype):
    x = _values((4, 5, 2), dtype)
    for axis in (0, 1, -1):
        for keep in (False, True):
            check("Median", x, False, axis, keep)
    check("Median", x, True)
    check("Median", x, False, 0, False, True)          # ignore_nan: refused
    check("Median", np.zeros((0, 3), dtype), False, 0)  # empty axis: refused


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_nth_element(dtype):
    x = _values((3, 2, 5), dtype)
    for n in (0, 2, 4):
        for reverse in (False, True):
            check("NthElement", x, n, reverse)
    check("NthElement", x[0, 0].copy(), 1)
    check("NthElement", x, 5)                          # n past the axis: refused
    assert sort.KERNELS["NthElement"](*on_device((x,)), -1) is None


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_median_ext(dtype):
    for shape in ((4, 5), (7,), ()):
        check("MedianExt", np.asarray(_values(shape, dtype)))
    check("MedianExt", np.zeros((0, 3), dtype))         # empty: refused


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_bounds(dtype):
    rows = np.sort(_values((3, 6), dtype), axis=-1)
    queries = _values((3, 4), dtype)
    for op in ("LowerBound", "UpperBound"):
        check(op, rows, queries)
        check(op, rows, queries, np.dtype(np.int64))
        check(op, rows, queries[:2].copy())              # rows differ: refused
        assert sort.KERNELS[op](*on_device((rows[0].copy(), queries[0].copy()))) is None
