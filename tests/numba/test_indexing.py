"""The gather, scatter and indexing Numba kernels (ops/_kernels/index.py) equal
their NumPy references: random shapes and ranks (0-d and empty included),
every word width (bool, float16, float32/int32, float64/int64), int32 and
int64 indices, negative and repeated indices, NaN, unaligned and
non-contiguous inputs, the cases handed back to the reference, and the
reference's errors for indices out of range.

``fast`` also checks that the kernel did the work (its driver returned a
result rather than handing the case to the reference).
"""
import numpy as np
import pytest

from refinfer import threads
from refinfer.ops._kernels import index as _fast_index

from kernel_check import check, normal, rng

DRIVERS = ("batched_take", "take_nd", "gather_along", "scatter", "one_hot_encode",
           "triangle", "nonzero", "compress", "repeat")
DTYPES = (np.float32, np.float64, np.float16, np.int32, np.int64, np.bool_)
INDEX = (np.int32, np.int64)
SCATTERS = ("TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub",
            "TensorScatterMul", "TensorScatterMax", "TensorScatterMin", "ScatterNdAdd",
            "ScatterNdSub", "ScatterNdUpdate", "ScatterNdMul", "ScatterNdMax", "ScatterNdMin")
ROW_SCATTERS = ("ScatterAdd", "ScatterSub", "ScatterUpdate", "ScatterMul", "ScatterMax",
                "ScatterMin")        # ScatterNd*'s row forms: indices name rows


@pytest.fixture(autouse=True)
def driver_results(monkeypatch):
    """Every size reaches the kernels; each driver's results are recorded
    (None: the case went to the reference)."""
    monkeypatch.setattr(_fast_index, "SMALL", 0)
    results = []
    for name in DRIVERS:
        def recorded(*args, _driver=getattr(_fast_index, name), **kwargs):
            results.append(_driver(*args, **kwargs))
            return results[-1]
        monkeypatch.setattr(_fast_index, name, recorded)
    return results


@pytest.fixture
def fast(driver_results):
    """check(op, *args) where the kernel must do the work itself."""
    def run(op, *args):
        driver_results.clear()
        check(op, *args)
        assert driver_results and all(r is not None for r in driver_results), op
    return run


@pytest.fixture
def either(driver_results):
    """check(op, *args), whichever path the driver chooses."""
    return check


@pytest.fixture
def refused(driver_results):
    """check(op, *args) where the kernel must hand the case (a result or an
    error) to the reference."""
    def run(op, *args):
        driver_results.clear()
        check(op, *args)
        assert all(r is None for r in driver_results), op
    return run


def values(shape, dtype):
    """Random values of any dtype as an array (bools about half true)."""
    if np.dtype(dtype) == np.bool_:
        return np.asarray(rng.random(shape) < 0.5)
    if np.dtype(dtype).kind in "iu":
        return np.asarray(rng.integers(-50, 50, shape).astype(dtype))
    return np.asarray(normal(shape, dtype))


def index_dtypes(dtype):
    """int64 indices for every data dtype, int32 too beside float32 (each
    pair is a kernel signature to compile)."""
    return INDEX if dtype == np.float32 else (np.int64,)


def indices(shape, length, dtype=np.int64, negative=True):
    """Random indices into an axis of ``length`` (negative ones too)."""
    low = -length if negative else 0
    return rng.integers(low, length, shape).astype(dtype)


# -- gathers -----------------------------------------------------------------------------------
GATHER_CASES = [((7,), 0, (5,)), ((7,), 0, ()), ((4, 6), 1, (3, 2)), ((4, 6), -2, (9,)),
                ((3, 5, 4), 1, (2, 3)), ((2, 3, 5, 3), 2, (4,)), ((5, 3), 0, (0,)),
                ((0, 3), 1, (2,))]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", GATHER_CASES, ids=str)
def test_gather(fast, refused, either, dtype, case):
    shape, axis, index_shape = case
    x = values(shape, dtype)
    empty = 0 in shape + index_shape                            # empty: the reference
    narrow = x.itemsize * np.prod(shape[axis % len(shape) + 1:]) <= 8   # else np.take
    take = refused if empty else fast if narrow else either
    for index_dtype in index_dtypes(dtype):
        index = indices(index_shape, shape[axis], index_dtype)
        take("Gather", x, index, axis)
        take("IndexSelect", x, axis, index.reshape(-1))
        if axis == 0 and len(shape) == 2 and dtype in (np.float32, np.float16):
            (refused if empty else fast)("Embedding",
                                         indices(index_shape, shape[0], index_dtype, False), x)


@pytest.mark.parametrize("batch_dims", [1, 2, -1])
def test_gather_batch_dims(fast, batch_dims):
    x = normal((2, 3, 5, 4))
    index = indices((2, 3, 6), 5)
    fast("Gather", x, index, 2, batch_dims)
    fast("Gather", x, index[:, :, 0], 2, batch_dims)


def test_gather_large_rows_split_across_threads(fast, refused):
    table, tokens = normal((3000, 768)), indices((2, 400), 3000, np.int32, negative=False)
    threads.configure(1)                                        # (reset by the conftest)
    refused("Gather", table, tokens, 0)                         # one thread: np.take
    threads.configure(3)
    table = normal((3000, 768))
    tokens = indices((2, 400), 3000, np.int32, negative=False)
    fast("Gather", table, tokens, 0)
    fast("Embedding", tokens, table)
    fast("Gather", normal((600, 1000)), indices((700,), 1000), 1)   # 4-byte words


def test_gather_unaligned_and_strided_tables(fast):
    raw = np.frombuffer(bytes(8 * 40 + 4), np.float32, offset=4).reshape(10, 8)
    assert not raw.flags.writeable and raw.ctypes.data % 8      # 4-byte words
    fast("Embedding", np.array([3, 1, 0, 9]), raw)
    fast("Gather", raw.reshape(-1)[1:], np.array([3, -1]), 0)
    fast("Gather", normal((8, 10)).T, np.array([3, -1, 0, 7]), 1)     # a transposed view
    half = np.frombuffer(bytes(2 * 33), np.float16, offset=2).reshape(4, 8)
    fast("Embedding", np.array([1, 3, 3]), half)


def test_gather_errors_and_fallbacks(refused):
    x = normal((4, 5))
    refused("Gather", x, np.array([0, 5]), 1)                  # IndexError
    refused("Gather", x, np.array([-6]), 1)
    refused("Gather", x, np.array([1, 2], np.uint8), 1)       # other index dtypes
    refused("Gather", x, np.array([0]), 3)                     # axis out of range
    refused("Gather", x, indices((5, 2), 4), 1, 1)             # batch axes differ
    refused("IndexSelect", x, 0, np.array([[0, 1]]))           # 2-D index: ValueError
    refused("IndexSelect", x, 0, np.array([4]))
    refused("IndexSelect", x, 2, np.array([0]))
    refused("Embedding", np.array([0, 4]), x)                  # ValueError
    refused("Embedding", np.array([-1]), x)
    refused("Embedding", np.array([0, 3]), x, None, 1.0)       # max_norm
    refused("Gather", (x + 1j).astype(np.complex64), np.array([0, 3]), 1)  # not plain bits
    refused("Gather", x.astype(object), np.array([0, 3]), 1)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", [((6,), 0, (9,)), ((4, 5), 1, (4, 7)), ((4, 5), 0, (2, 3)),
                                  ((3, 4, 5), -2, (2, 6, 5)), ((2, 3, 2, 4), 3, (2, 3, 1, 6))],
                         ids=str)
def test_gather_d(fast, dtype, case):
    shape, dim, index_shape = case
    x = values(shape, dtype)
    for index_dtype in index_dtypes(dtype):
        fast("GatherD", x, dim, indices(index_shape, shape[dim], index_dtype))


def test_gather_d_split_and_errors(fast, refused):
    fast("GatherD", normal((700, 800)), 1, indices((700, 800), 800, np.int32))
    x = normal((3, 4))
    refused("GatherD", x, 1, np.array([[0, 4]]))               # ValueError
    refused("GatherD", x, 0, np.array([[-4, 0]]))
    refused("GatherD", x, 0, np.array([0, 1]))                 # rank differs
    refused("GatherD", x, 0, np.zeros((2, 5), np.int64))       # index wider than x
    refused("GatherD", x, 0, np.zeros((0, 4), np.int64))       # empty
    refused("GatherD", x, 0, np.zeros((2, 4), np.uint8))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", [((6,), (4, 1)), ((4, 5), (3, 2)), ((4, 5), (2, 3, 1)),
                                  ((3, 4, 5), (7, 2)), ((3, 4, 5), (3,)), ((2, 2), (0, 2))],
                         ids=str)
def test_gather_nd(fast, refused, dtype, case):
    shape, index_shape = case
    x = values(shape, dtype)
    for index_dtype in index_dtypes(dtype):
        columns = [rng.integers(0, shape[a], index_shape[:-1]) for a in range(index_shape[-1])]
        expect = refused if 0 in index_shape else fast
        expect("GatherNd", x, np.stack(columns, -1).astype(index_dtype))


def test_gather_nd_errors_and_fallbacks(refused):
    x = normal((3, 4))
    refused("GatherNd", x, np.array([[0, 4]]))                 # ValueError
    refused("GatherNd", x, np.array([[-1, 0]]))
    refused("GatherNd", x, np.array([[0, 1, 0]]))              # too deep
    refused("GatherNd", x, np.zeros((2, 0), np.int64))          # k = 0: whole input
    refused("GatherNd", x, np.array([[0.0, 1.0]]))             # TypeError
    refused("GatherNd", x, np.array(1))


# -- scatters ----------------------------------------------------------------------------------
def scatter_case(shape, depth, count, dtype, index_dtype=np.int64):
    """Indices with repeats (count tuples into a few rows) and updates."""
    rows = [rng.integers(0, min(shape[a], 3), count) for a in range(depth)]
    index = np.stack(rows, -1).astype(index_dtype)
    return index, values((count,) + shape[depth:], dtype)


@pytest.mark.parametrize("op", SCATTERS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize("case", [((7,), 1, 12), ((5, 6), 1, 9), ((4, 5, 3), 2, 10),
                                  ((4, 5), 2, 1), ((3, 2), 1, 0)], ids=str)
def test_tensor_scatter(fast, op, dtype, case):
    shape, depth, count = case
    for index_dtype in index_dtypes(dtype):
        index, updates = scatter_case(shape, depth, count, dtype, index_dtype)
        fast(op, values(shape, dtype), index, updates)


@pytest.mark.parametrize("op", ROW_SCATTERS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize("case", [((7,), (12,)), ((5, 6), (3, 3)), ((4, 5, 3), (10,)),
                                  ((4, 5), ())], ids=str)
def test_row_scatter(fast, op, dtype, case):
    shape, index_shape = case
    for index_dtype in index_dtypes(dtype):
        index = rng.integers(0, min(shape[0], 3), index_shape).astype(index_dtype)
        fast(op, values(shape, dtype), index, values(index_shape + shape[1:], dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_scatter_nd_accumulates_repeats(fast, dtype):
    for shape, depth in [((6, 4), 1), ((3, 4, 5), 2), ((9,), 1)]:
        index, updates = scatter_case(shape, depth, 20, dtype)
        fast("ScatterNd", index, updates, shape)


def test_scatter_nan_casts_and_split(fast):
    x = np.array([1.0, np.nan, 3.0, -np.inf], np.float32)
    index = np.array([[0], [1], [2], [2], [3]])
    updates = np.array([np.nan, 5.0, np.nan, 1.0, 2.0], np.float32)
    for op in SCATTERS:
        fast(op, x, index, updates)
    fast("TensorScatterAdd", x, index, updates.astype(np.float64))    # cast to x's dtype
    bits = rng.integers(0, 2**32, (5, 3), dtype=np.uint64).astype(np.uint32)
    fast("TensorScatterUpdate", bits, np.array([[4], [0], [4]]), bits[:3])   # any 4 bytes
    index, updates = scatter_case((50, 1000), 1, 600, np.float32)
    fast("ScatterNd", index, updates, (50, 1000))               # columns split


def test_scatter_errors_and_fallbacks(refused):
    x = normal((4, 3))
    refused("TensorScatterAdd", x, np.array([[4]]), normal((1, 3)))     # ValueError
    refused("TensorScatterAdd", x, np.array([[-1]]), normal((1, 3)))
    refused("TensorScatterAdd", x, np.array([[1]]), normal((2, 3)))     # updates shape
    refused("TensorScatterAdd", x.astype(np.float16), np.array([[1]]),
            normal((1, 3), np.float16))
    refused("TensorScatterUpdate", x > 0, np.array([[1], [1]]), normal((2, 3)) > 0)
    refused("TensorScatterMax", x.astype(np.uint32), np.array([[1]]),
            np.ones((1, 3), np.uint32))
    refused("ScatterNd", np.array([[1], [1]]), np.array([True, False]), (3,))
    refused("ScatterNd", np.array([[3]]), np.ones(1, np.float32), (3,))


# -- one-hot, triangles ------------------------------------------------------------------------
@pytest.mark.parametrize("on_dtype", [np.float32, np.float64, np.float16, np.int64, np.bool_])
@pytest.mark.parametrize("case", [((6,), 4, -1), ((3, 5), 7, -1), ((3, 5), 7, 0),
                                  ((2, 3, 4), 5, 1), ((), 3, -1), ((0, 4), 3, -1),
                                  ((4,), 0, 1)], ids=str)
def test_one_hot(fast, on_dtype, case):
    shape, depth, axis = case
    on, off = np.asarray(values((), on_dtype)), np.asarray(values((), on_dtype))
    for index_dtype in INDEX:
        index = rng.integers(-2, depth + 2, shape).astype(index_dtype)   # some outside
        fast("OneHot", index, depth, on, off, axis)
    fast("OneHot", index, depth, on, np.asarray(2.5), axis)       # off cast to on's dtype
    fast("OneHotExt", np.asarray(np.abs(index)), -1, np.array(1), np.array(0), axis)
    fast("OneHotExt", index, depth, on, off, axis)


def test_one_hot_errors_and_fallbacks(refused):
    on, off = np.array(1.0, np.float32), np.array(0.0, np.float32)
    refused("OneHot", np.array([1, 2]), -1, on, off, -1)       # ValueError
    refused("OneHot", np.array([1, 2]), 3, on, off, 2)
    refused("OneHot", np.array([1, 2], np.uint8), 3, on, off, -1)


@pytest.mark.parametrize("op", ["Tril", "TrilExt", "Triu"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 5), (3, 7), (2, 6, 4), (2, 1, 3, 3), (0, 3)], ids=str)
def test_triangles(fast, op, dtype, shape):
    x = values(shape, dtype)
    for diagonal in (0, 2, -1, -9, 9):
        fast(op, x, diagonal)


def test_triangle_split_nan_and_errors(fast, refused):
    x = normal((3, 400, 500))
    x[0, 5, :] = np.nan
    fast("Tril", x, 1)
    fast("Triu", x[:, ::2], -3)                                # strided
    refused("Tril", normal((5,)), 0)                           # ValueError
    refused("Triu", np.float32(1), 0)
    refused("Tril", normal((3, 3)).astype(np.complex128), 0)   # complex


# -- selections ----------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(9,), (3, 4), (2, 3, 4, 2), (), (0, 3)], ids=str)
def test_selections(fast, dtype, shape):
    x = np.asarray(values(shape, dtype) * np.asarray(rng.random(shape) < 0.6).astype(dtype))
    if x.ndim:
        fast("NonZero", x)
    fast("NonZeroExt", x)
    fast("MaskedSelect", x, np.asarray(rng.random(shape) < 0.5))


def test_selections_of_signed_zeros_nan_and_large(fast):
    x = np.array([0.0, -0.0, np.nan, 1e-45, -np.inf, 0.0], np.float32)
    for dtype in (np.float16, np.float32, np.float64):
        fast("NonZero", x.astype(dtype))
        fast("NonZeroExt", x.astype(dtype).reshape(2, 3))
    big = rng.random((700, 1000)) < 0.3                        # several thread ranges
    fast("NonZero", big)
    fast("NonZeroExt", big.astype(np.float32))
    fast("MaskedSelect", normal(big.shape), big)


def test_selection_errors_and_fallbacks(refused):
    refused("NonZero", np.float32(3))                          # ValueError
    refused("NonZero", np.array([0, 1j, 2]))                   # complex
    refused("MaskedSelect", normal((3, 4)), rng.random(4) < 0.5)          # broadcast
    refused("MaskedSelect", normal((3, 4)), rng.integers(0, 2, (3, 4)))   # int mask


# -- repeats -------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", [((5,), None), ((3, 4), 0), ((3, 4), 1), ((2, 3, 4), -2),
                                  ((3, 4), None), ((), None), ((0, 4), 1)], ids=str)
def test_repeat_interleave(fast, either, dtype, case):
    shape, dim = case
    x = values(shape, dtype)
    length = int(np.prod(shape)) if dim is None else shape[dim]
    narrow = dim is None or x.itemsize * np.prod(shape[dim % len(shape) + 1:]) <= 8
    repeat = fast if narrow else either                         # else np.repeat
    repeat("RepeatInterleaveInt", x, 3, dim)
    repeat("RepeatInterleaveInt", x, 0, dim)
    counts = rng.integers(0, 4, length)
    repeat("RepeatInterleaveTensor", x, counts, dim)
    repeat("RepeatInterleaveTensor", x, counts.astype(np.int32), dim, int(counts.sum()))
    repeat("RepeatInterleaveTensor", x, np.array([2]), dim)


def test_repeat_interleave_split_and_errors(fast, refused):
    fast("RepeatInterleaveTensor", normal(600_000), rng.integers(0, 3, 600_000), None)
    fast("RepeatInterleaveTensor", values((300, 2000), np.bool_), rng.integers(0, 3, 2000), 1)
    threads.configure(3)                                        # (reset by the conftest)
    fast("RepeatInterleaveTensor", normal((800, 1000)), rng.integers(1, 4, 800), 0)
    fast("RepeatInterleaveInt", normal((5, 400, 300)), 2, 1)
    x = normal((3, 4))
    refused("RepeatInterleaveTensor", x, np.array([1, -1, 2]), 0)      # ValueError
    refused("RepeatInterleaveTensor", x, np.array([1, 2]), 0)
    refused("RepeatInterleaveInt", x, 2, 0, 5)                          # output_size
    refused("RepeatInterleaveInt", x, 2, 2)
    refused("RepeatInterleaveInt", np.array(["a", "bc"]), 2, 0)    # strings


def test_small_cases_go_to_the_reference(monkeypatch, refused):
    monkeypatch.setattr(_fast_index, "SMALL", 4096)
    refused("Gather", normal((4, 5)), np.array([1, 2]), 0)
    refused("GatherD", normal((4, 5)), 1, indices((4, 5), 5))
    refused("Tril", normal((4, 5)), 0)
    refused("NonZero", normal((4, 5)))
    refused("TensorScatterAdd", normal((4, 5)), np.array([[1]]), normal((1, 5)))


TESTED = {"Gather", "GatherD", "GatherNd", "IndexSelect", "Embedding", "OneHot", "OneHotExt",
          "ScatterNd", "Tril", "TrilExt", "Triu", "MaskedSelect", "NonZero", "NonZeroExt",
          "RepeatInterleaveInt", "RepeatInterleaveTensor"} \
    | set(SCATTERS) | set(ROW_SCATTERS)
