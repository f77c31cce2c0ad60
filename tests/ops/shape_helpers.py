"""Helpers of the shape-op tests: exact comparison and element-wise builders."""
import itertools

import numpy as np

DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32,
          np.int64, np.uint8, np.bool_]


def values(shape, dtype=np.float32, seed=0):
    """Distinct values 1..size in a seeded order (bools alternate)."""
    size = int(np.prod(shape, dtype=np.int64))
    raw = np.random.default_rng(seed).permutation(max(size, 1))[:size] + 1
    if dtype == np.bool_:
        raw = raw % 2
    return raw.astype(dtype).reshape(shape)


def same(got, expected):
    """got is an ndarray equal to expected in dtype, shape and every value."""
    expected = np.asarray(expected)
    assert isinstance(got, np.ndarray), type(got)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    np.testing.assert_array_equal(got, expected)


def loop_fill(shape, dtype, value_at):
    """An array whose element at each index is value_at(index)."""
    out = np.empty(shape, dtype)
    for index in itertools.product(*map(range, shape)):
        out[index] = value_at(index)
    return out
