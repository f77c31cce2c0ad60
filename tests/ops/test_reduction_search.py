"""Reductions, arg-searches, cumulative ops, sorting and statistics against
explicit Python loops over slices (math.fsum / exact ints / sorted /
bisect), over axis variants, rank 0, 0-size dims and dtypes; MindSpore
2.7.1's NaN and tie rules."""
import bisect
import math
import statistics

import numpy as np
import pytest

from math_helpers import FLOATS, INTS, sample, wrap

from refinfer.registry import get_op
from tolerances import tolerance

AXES = [((2, 3, 4), ()), ((2, 3, 4), 1), ((2, 3, 4), (0, 2)), ((2, 3, 4), (-1,)),
        ((), ()), ((5,), 0), ((0, 3), 0), ((3, 0), (1,))]


def slices(x, axes):
    """(kept index, list of Python values) for every reduced slice."""
    axes = sorted({a % x.ndim for a in axes}) if axes else list(range(x.ndim))
    kept = [a for a in range(x.ndim) if a not in axes]
    for idx in np.ndindex(*[x.shape[a] for a in kept]):
        index = [slice(None)] * x.ndim
        for a, i in zip(kept, idx):
            index[a] = i
        yield idx, [v.item() for v in np.asarray(x[tuple(index)]).ravel()]


def loop_reduce(x, axis, keepdims, f, out):
    axes = np.atleast_1d(axis).tolist() if axis is not None else []
    kept_shape = [d for a, d in enumerate(x.shape)
                  if axes and a % max(x.ndim, 1) not in [b % max(x.ndim, 1) for b in axes]]
    result = np.empty(kept_shape, dtype=out)
    for idx, values in slices(x, axes):
        result[idx] = f(values)
    if keepdims:
        result = result.reshape([1 if not axes or a in [b % x.ndim for b in axes] else d
                                 for a, d in enumerate(x.shape)])
    return result


def product(dtype):
    if np.dtype(dtype).kind == "b":
        return all
    if np.dtype(dtype).kind in "iu":
        return lambda v: wrap(math.prod(v), dtype)
    return math.prod


@pytest.mark.parametrize("shape,axis", AXES)
@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.bool_])
def test_reduce_prod_all_any(call, close, rng, shape, axis, dtype):
    x = sample(rng, shape, dtype, -3, 3)
    out = np.float64 if np.dtype(dtype).kind == "f" else dtype
    any_out = np.uint8 if dtype == np.uint8 else bool  # MindSpore: uint8 in, uint8 out
    for keep in (False, True):
        close(call("ReduceProd", x, axis, keep),
              loop_reduce(x, axis, keep, product(dtype), out), dtype,
              **tolerance("ReduceProd", dtype))
        close(call("ReduceAll", x, axis, keep), loop_reduce(x, axis, keep, all, bool))
        close(call("ReduceAny", x, axis, keep), loop_reduce(x, axis, keep, any, any_out))


@pytest.mark.parametrize("shape,axis", [a for a in AXES if 0 not in a[0]])
@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_reduce_min(call, close, rng, shape, axis, dtype):
    x = sample(rng, shape, dtype, -50, 50)
    out = np.float64 if np.dtype(dtype).kind == "f" else dtype
    for keep in (False, True):
        close(call("ReduceMin", x, axis, keep), loop_reduce(x, axis, keep, min, out), dtype)


@pytest.mark.parametrize("dim", [None, 0, 1, -1])
@pytest.mark.parametrize("dtype,out", [(np.float32, np.float32), (np.float16, np.float16),
                                       (np.int8, np.int64), (np.int32, np.int64),
                                       (np.bool_, np.int64)])
def test_prod_ext(call, close, rng, dim, dtype, out):
    x = sample(rng, (3, 4), dtype, -3, 3)
    f = math.prod if x.dtype.kind == "f" else (lambda v: math.prod(map(int, v)))
    for keep in (False, True):
        expected = loop_reduce(x, dim, keep, f, np.float64 if x.dtype.kind == "f" else out)
        close(call("ProdExt", x, dim, keep), expected, out, **tolerance("ProdExt", dtype))
    close(call("ProdExt", x, dim, False, 44), loop_reduce(x, dim, False, math.prod,
                                                          np.float64), np.float64)


def scan_extreme(values, largest):
    """(index, value) as MindSpore's CPU scan finds it: strict comparisons
    from the first element, so NaN never wins unless it comes first."""
    best = 0
    for i, v in enumerate(values):
        if (v > values[best]) if largest else (v < values[best]):
            best = i
    return best, values[best]


def along(x, axis, f):
    """f(list) -> (index, value) over every 1-D slice along axis."""
    moved = np.moveaxis(x, axis, -1)
    index = np.empty(moved.shape[:-1], np.int64)
    value = np.empty(moved.shape[:-1], x.dtype)
    for idx in np.ndindex(*moved.shape[:-1]):
        index[idx], value[idx] = f([v.item() for v in moved[idx]])
    return index, value


NAN_ROWS = np.array([[math.nan, 1, 3], [1, math.nan, 3], [3, math.nan, 1], [2, 5, 5]],
                    np.float32)


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.bool_])
def test_arg_search_family(call, close, rng, largest, dtype):
    rows = NAN_ROWS if np.dtype(dtype).kind == "f" else np.nan_to_num(NAN_ROWS)
    for x in (sample(rng, (3, 4, 5), dtype, -3, 3), rows.astype(dtype)):
        for axis in range(-x.ndim, x.ndim):
            index, value = along(x, axis, lambda v: scan_extreme(v, largest))
            arg, with_value, dim = ("Argmax", "ArgMaxWithValue", "MaxDim") if largest \
                else ("Argmin", "ArgMinWithValue", "MinDim")
            close(call(arg, x, axis, 35), index)
            close(call(arg, x, axis), index.astype(np.int32))
            got_index, got_value = call(with_value, x, axis)
            close(got_index, index)
            close(got_value, value)
            got_value, got_index = call(dim, x, axis, True)
            close(got_index, np.expand_dims(index, axis))
            close(got_value, np.expand_dims(value, axis))
            ext = "ArgMaxExt" if largest else "ArgMinExt"
            close(call(ext, x, axis, False), index)
        flat_index, flat_value = scan_extreme([v.item() for v in x.ravel()], largest)
        close(call("ArgMaxExt" if largest else "ArgMinExt", x), np.array(flat_index))
        close(call("Max" if largest else "Min", x), np.array(flat_value, dtype))


def test_arg_search_edges(call, close):
    x = np.array(7.0, np.float32)
    close(call("Argmax", x, -1, 35), np.array(0))
    close(call("ArgMaxExt", np.ones((2, 3)), None, True), np.zeros((1, 1), np.int64))
    with pytest.raises(ValueError):
        call("Argmax", np.zeros((2, 0), np.float32), 1)
    with pytest.raises(ValueError):
        call("ArgMaxWithValue", np.zeros((2, 3), np.float32), 2)


def cumulative_loop(values, f, identity, exclusive, reverse):
    seq = values[::-1] if reverse else values
    out, acc = [], identity
    for v in seq:
        if exclusive:
            out.append(acc)
            acc = f(acc, v)
        else:
            acc = f(acc, v)
            out.append(acc)
    return out[::-1] if reverse else out


@pytest.mark.parametrize("op,f,identity", [("CumSum", lambda a, b: a + b, 0),
                                           ("CumProd", lambda a, b: a * b, 1)])
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_cumulative(call, close, rng, op, f, identity, exclusive, reverse, dtype):
    for shape in [(3, 4, 2), (5,), (0, 3), ()]:
        x = sample(rng, shape, dtype, -3, 3)
        for axis in range(-max(x.ndim, 1), max(x.ndim, 1)):
            expected = np.empty(x.shape, np.float64 if x.dtype.kind == "f" else dtype)
            moved_x = np.moveaxis(x.reshape(x.shape or (1,)), axis, -1)
            moved_e = np.moveaxis(expected.reshape(x.shape or (1,)), axis, -1)
            for idx in np.ndindex(*moved_x.shape[:-1]):
                values = [v.item() for v in moved_x[idx]]
                result = cumulative_loop(values, f, identity, exclusive, reverse)
                moved_e[idx] = [wrap(r, dtype) for r in result] if x.dtype.kind in "iu" \
                    else result
            close(call(op, x, axis, exclusive, reverse), expected, dtype,
                  **tolerance(op, dtype))


def test_cumsum_ext_widens_integers(call, close):
    x = np.array([[100, 100], [100, 27]], np.int8)
    close(call("CumsumExt", x, 1), np.array([[100, 200], [100, 127]], np.int64))
    close(call("CumsumExt", x, 0, 32), np.array([[100, 100], [-56, 127]], np.int8))
    close(call("CumSum", x, 0), np.array([[100, 100], [-56, 127]], np.int8))


def running(values, largest):
    """Running extreme with the index moving to the latest equal value."""
    out, index, best = [], [], None
    for i, v in enumerate(values):
        if best is None or (v >= values[best] if largest else v <= values[best]):
            best = i
        out.append(values[best])
        index.append(best)
    return out, index


@pytest.mark.parametrize("op,largest,index_dtype", [("Cummax", True, np.int64),
                                                    ("Cummin", False, np.int32)])
@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_running_extremes(call, close, rng, op, largest, index_dtype, dtype):
    x = sample(rng, (3, 6, 2), dtype, -2, 2)  # small range: many ties
    for axis in range(-3, 3):
        values, index = np.empty_like(x), np.empty(x.shape, index_dtype)
        mv, mi, mx = (np.moveaxis(a, axis, -1) for a in (values, index, x))
        for idx in np.ndindex(*mx.shape[:-1]):
            mv[idx], mi[idx] = running([v.item() for v in mx[idx]], largest)
        got_values, got_index = call(op, x, axis)
        close(got_values, values)
        close(got_index, index)


@pytest.mark.parametrize("op,largest", [("Cummax", True), ("Cummin", False)])
def test_running_extremes_keep_the_first_nan(call, op, largest):
    x = np.array([[1.0, np.nan, 3.0, 0.0], [2.0, 2.0, np.nan, np.nan]], np.float32)
    values, index = call(op, x, 1)
    np.testing.assert_array_equal(values, [[1, np.nan, np.nan, np.nan],
                                           [2, 2, np.nan, np.nan]])
    np.testing.assert_array_equal(index, [[0, 1, 1, 1], [0, 1, 2, 2]])


def sorted_loop(values, descending):
    """Stable sort (for reverse=True too: equal values keep index order)."""
    order = sorted(range(len(values)), key=lambda i: values[i], reverse=descending)
    return [values[i] for i in order], order


@pytest.mark.parametrize("dtype", FLOATS + INTS)
@pytest.mark.parametrize("descending", [False, True])
def test_sort_family(call, close, rng, dtype, descending):
    x = sample(rng, (3, 5, 4), dtype, -3, 3)  # small range: ties
    for axis in range(-3, 3):
        values, index = np.empty_like(x), np.empty(x.shape, np.int64)
        mv, mi, mx = (np.moveaxis(a, axis, -1) for a in (values, index, x))
        for idx in np.ndindex(*mx.shape[:-1]):
            mv[idx], mi[idx] = sorted_loop([v.item() for v in mx[idx]], descending)
        got_values, got_index = call("Sort", x, axis, descending)
        close(got_values, values)
        close(got_index, index.astype(np.int32))
        got_values, got_index = call("SortExt", x, axis, descending)
        close(got_index, index)
        close(call("ArgSort", x, axis, descending), index)
        k = 2
        top_values, top_index = call("TopkExt", x, k, axis, descending)
        close(top_values, np.take(values, range(k), axis=axis))
        close(top_index, np.take(index, range(k), axis=axis))
        if descending and axis in (-1, 2):
            top_values, top_index = call("TopK", x, k)
            close(top_values, np.take(values, range(k), axis=-1))
            close(top_index, np.take(index, range(k), axis=-1).astype(np.int32))


def test_top_k_range(call):
    with pytest.raises(ValueError):
        call("TopK", np.zeros((2, 3), np.float32), 4)
    assert call("TopK", np.zeros((2, 3), np.float32), 0)[0].shape == (2, 0)


@pytest.mark.parametrize("dtype", FLOATS)
def test_statistics(call, close, rng, dtype):
    x = sample(rng, (3, 4, 5), dtype)
    for axis in [(), (1,), (0, 2), (-1,)]:
        for unbiased in (True, False):
            f = statistics.stdev if unbiased else statistics.pstdev
            for keep in (False, True):
                std, mean = call("ReduceStd", x, axis, unbiased, keep)
                close(std, loop_reduce(x, axis or None, keep, f, np.float64), dtype)
                close(mean, loop_reduce(x, axis or None, keep, statistics.fmean,
                                        np.float64), dtype)
                close(call("Std", x, axis or None, int(unbiased), keep),
                      loop_reduce(x, axis or None, keep, f, np.float64), dtype)
        lse = loop_reduce(x, axis or None, False,
                          lambda v: math.log(math.fsum(math.exp(a) for a in v)), np.float64)
        close(call("LogSumExp", x, axis or None), lse, dtype)


def test_log_sum_exp_extremes(call, close):
    x = np.array([[1000.0, 1000.0], [-math.inf, -math.inf], [math.inf, 1.0]], np.float32)
    close(call("LogSumExp", x, 1), [1000 + math.log(2), -math.inf, math.inf], np.float32)


def lower_median(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    pick = order[(len(values) - 1) // 2]
    return pick, values[pick]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.int32, np.int64])
def test_median(call, close, rng, dtype):
    x = sample(rng, (3, 4, 5), dtype, -99, 99)
    for axis in range(-3, 3):
        index, value = along(x, axis, lower_median)
        got_value, got_index = call("Median", x, False, axis, False)
        close(got_value, value)
        np.testing.assert_array_equal(np.take_along_axis(
            x, np.expand_dims(got_index, axis % 3), axis % 3).squeeze(axis % 3), value)
    flat = lower_median([v.item() for v in x.ravel()])[1]
    close(call("Median", x, True)[0], np.array(flat, dtype))
    close(call("MedianExt", x), np.array(flat, dtype))


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64])
def test_search_sorted(call, close, rng, right, dtype):
    side = bisect.bisect_right if right else bisect.bisect_left
    seq = np.sort(sample(rng, (6,), dtype, -5, 5))
    values = sample(rng, (2, 3), dtype, -6, 6)
    expected = np.array([side(seq.tolist(), v) for v in values.ravel().tolist()]
                        ).reshape(values.shape)
    close(call("SearchSorted", seq, values, None, 35, right), expected.astype(np.int64))
    rows = np.sort(sample(rng, (2, 5), dtype, -5, 5), axis=-1)
    expected = np.array([[side(r.tolist(), v) for v in q.tolist()]
                         for r, q in zip(rows, values)])
    close(call("SearchSorted", rows, values, None, 34, right), expected.astype(np.int32))
    unsorted = rows[:, ::-1].copy()
    sorter = np.argsort(unsorted, axis=-1, kind="stable")
    close(call("SearchSorted", unsorted, values, sorter, 34, right), expected.astype(np.int32))


def test_nansum(call, close):
    x = np.array([[1.0, math.nan, 2.0], [math.nan, math.nan, 0.5]], np.float32)
    close(call("Nansum", x, (1,)), [3.0, 0.5], np.float32)
    close(call("Nansum", np.array([1, 2], np.int8)), np.array(3, np.int64))


@pytest.mark.parametrize("backend", ["reference", "numba"])
def test_reduce_any_of_a_non_tensor_names_it(backend):
    # A bool where a tensor belongs reached .ndim (issue 17).
    with pytest.raises(TypeError, match="ReduceAny: x must be a tensor, got True"):
        get_op("ReduceAny").kernel(backend)(True, (), False)
