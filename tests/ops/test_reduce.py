"""Reductions against explicit loops (math.fsum for floats, Python ints
wrapped to the dtype for integers)."""
import math

import numpy as np
import pytest

FLOATS = [np.float16, np.float32, np.float64]
INTS = [np.int8, np.int32, np.int64, np.uint8]


def wrap(value, dtype):
    info = np.iinfo(dtype)
    span = int(info.max) - int(info.min) + 1
    return (int(value) - int(info.min)) % span + int(info.min)


def loop_reduce(x, axes, keepdims, f):
    """Apply f to the list of values of every reduced slice."""
    ndim = x.ndim
    axes = sorted({a % ndim for a in axes}) if axes else list(range(ndim))
    kept = [a for a in range(ndim) if a not in axes]
    out = np.empty([x.shape[a] for a in kept], dtype=object)
    for idx in np.ndindex(*out.shape):
        index = [slice(None)] * ndim
        for a, i in zip(kept, idx):
            index[a] = i
        out[idx] = f([v.item() for v in np.asarray(x[tuple(index)]).ravel()])
    if keepdims:
        out = out.reshape([1 if a in axes else x.shape[a]
                           for a in range(ndim)])
    return out


def sum_of(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return any
    if dtype.kind in "iu":
        return lambda v: wrap(sum(v), dtype)
    return math.fsum


def mean_of(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":  # wrapped sum, division truncating toward zero
        return lambda v: int(wrap(sum(v), dtype) / len(v))
    return lambda v: math.fsum(v) / len(v) if v else math.nan


def sample(rng, shape, dtype):
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal(shape) * 10).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    return rng.integers(0, 100, shape).astype(dtype)  # int8 sums overflow


AXES = [((2, 3, 4), ()), ((2, 3, 4), 1), ((2, 3, 4), (0, 2)),
        ((2, 3, 4), (-1,)), ((2, 3, 4), np.array([2, 0])), ((), ()),
        ((5,), 0), ((0, 3), 0), ((3, 0), (1,))]


@pytest.mark.parametrize("shape,axis", AXES)
@pytest.mark.parametrize("keep_dims", [False, True])
@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.bool_])
def test_reduce_sum(call, close, rng, shape, axis, keep_dims, dtype):
    x = sample(rng, shape, dtype)
    expected = loop_reduce(x, np.atleast_1d(axis).tolist(), keep_dims,
                           sum_of(dtype))
    got = call("ReduceSum", x, axis, keep_dims)
    close(got, expected.astype(np.float64 if x.dtype.kind == "f" else dtype),
          dtype, **({"rtol": 2e-3, "atol": 2e-2} if dtype == np.float16
                    else {}))


MEAN_CASES = [(shape, axis, dtype) for shape, axis in AXES
              for dtype in FLOATS + INTS
              if dtype in FLOATS or 0 not in shape]  # float empty mean: NaN


@pytest.mark.parametrize("shape,axis,dtype", MEAN_CASES)
@pytest.mark.parametrize("keep_dims", [False, True])
def test_reduce_mean(call, close, rng, shape, axis, keep_dims, dtype):
    x = sample(rng, shape, dtype)
    axes = np.atleast_1d(axis).tolist()
    expected = loop_reduce(x, axes, keep_dims, mean_of(dtype))
    close(call("ReduceMean", x, axis, keep_dims),
          expected.astype(np.float64 if x.dtype.kind == "f" else dtype),
          dtype, equal_nan=True)


@pytest.mark.parametrize("shape,axis", [a for a in AXES if 0 not in a[0]])
@pytest.mark.parametrize("keep_dims", [False, True])
@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.bool_])
def test_reduce_max(call, close, rng, shape, axis, keep_dims, dtype):
    x = sample(rng, shape, dtype)
    expected = loop_reduce(x, np.atleast_1d(axis).tolist(), keep_dims, max)
    close(call("ReduceMax", x, axis, keep_dims),
          expected.astype(np.float64 if x.dtype.kind == "f" else dtype), dtype)


def test_integer_reductions_like_mindspore(call, close):
    # MindSpore 2.7.1 CPU values.
    close(call("ReduceSum", np.array([100, 100], np.int8), ()),
          np.array(-56, np.int8))
    close(call("ReduceSum", np.array([200, 100], np.uint8), ()),
          np.array(44, np.uint8))
    close(call("ReduceSum", np.array([[1, 0, 1], [0, 0, 1]], bool), 1),
          np.array([True, True]))
    close(call("ReduceMean", np.array([-1, -2, -4], np.int32), ()),
          np.array(-2, np.int32))
    close(call("ReduceMean", np.array([255, 255, 1], np.uint8), ()),
          np.array(85, np.uint8))
    close(call("ReduceMean", np.array([[1, 2, 3], [4, 5, 7]], np.int32), 1),
          np.array([2, 5], np.int32))


def test_reduce_edge_cases(call, close):
    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    assert call("ReduceSum", x, (), False, True) is x  # skip_mode
    close(call("ReduceSum", x, (), False, False), np.array(10.0), np.float32)
    nan = np.array([1, np.nan, 3], np.float32)
    assert np.isnan(call("ReduceMax", nan, ()))
    with pytest.raises(ValueError):
        call("ReduceMax", np.zeros((0, 3), np.float32), 0)
    with pytest.raises(ValueError):
        call("ReduceSum", x, 2)
    with pytest.raises(ValueError):
        call("ReduceSum", x, (0, -2))
    with pytest.raises(TypeError):
        call("ReduceMean", np.array([True]), ())


@pytest.mark.parametrize("dim", [None, (), 1, (0, 1), (-1,)])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dtype,out", [(np.float16, np.float16),
                                       (np.float32, np.float32),
                                       (np.int8, np.int64),
                                       (np.uint8, np.int64),
                                       (np.int32, np.int64),
                                       (np.bool_, np.int64)])
def test_sum_ext(call, close, rng, dim, keepdim, dtype, out):
    x = sample(rng, (3, 4), dtype)
    axes = [] if dim is None else np.atleast_1d(dim).tolist()
    total = math.fsum if x.dtype.kind == "f" else (lambda v: sum(map(int, v)))
    expected = loop_reduce(x, axes, keepdim, total)
    close(call("SumExt", x, dim, keepdim, None),
          expected.astype(np.float64 if x.dtype.kind == "f" else out), out,
          **({"rtol": 2e-3, "atol": 2e-2} if dtype == np.float16 else {}))


def test_sum_ext_dtype_casts_first(call, close):
    # MindSpore 2.7.1: the dtype argument casts the input before summing.
    close(call("SumExt", np.array([1.7, 1.7], np.float32), None, False, 34),
          np.array(2, np.int32))
    close(call("SumExt", np.array([100, 100], np.int32), None, False, 32),
          np.array(-56, np.int8))
    close(call("SumExt", np.array([[1, 2], [3, 4]], np.int32), (1,), True,
               43), [[3], [7]], np.float32)
    close(call("SumExt", np.array(3.0, np.float32), 0), np.array(3.0),
          np.float32)


@pytest.mark.parametrize("dim", [None, (), 0, (0, 1), (-1,)])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dtype", FLOATS + [np.int32])
def test_mean_ext(call, close, rng, dim, keepdim, dtype):
    x = sample(rng, (3, 4), dtype)
    axes = [] if dim is None else np.atleast_1d(dim).tolist()
    expected = loop_reduce(x, axes, keepdim, mean_of(dtype))
    close(call("MeanExt", x, dim, keepdim, None),
          expected.astype(np.float64 if x.dtype.kind == "f" else dtype), dtype)


def test_mean_ext_dtype_and_integers(call, close):
    x = np.array([-1, -2, -4], np.int32)
    close(call("MeanExt", x), np.array(-2, np.int32))
    close(call("MeanExt", x, None, False, 43), np.array(-7 / 3), np.float32)
    close(call("MeanExt", np.array([1, 2, 4], np.float32), None, False, 44),
          np.array(7 / 3), np.float64)
