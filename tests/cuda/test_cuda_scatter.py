"""The cuda kernels of the gathers and scatters (refinfer/cuda/scatter.py)
equal their NumPy references: every combine op of the ScatterNd*,
TensorScatter* and Scatter* families with repeated indices (combined in
order; the last update wins), ScatterNd's sums, IndexAdd, IndexFill with
negative indices, the element scatters along an axis with repeats in a
line, GatherD, GatherNd and EmbeddingLookup's rows of zeros;
float32 and the int dtypes; an index out of range declines (the
reference raises its error)."""
import numpy as np
import pytest

from cuda_check import check, run, values

from refinfer.cuda import scatter  # noqa: F401  (declares the kernels)

ids = lambda d: np.dtype(d).name     # noqa: E731
KINDS = ("Add", "Sub", "Mul", "Max", "Min", "Update")
# repeated tuples (0, 2) and (1, 0): the order of combining shows
ND_INDICES = np.array([[0, 2], [1, 0], [0, 2], [1, 0], [1, 3]])


@pytest.mark.parametrize("dtype", (np.float32, np.int32, np.int64), ids=ids)
def test_scatters_by_index_tuples(dtype):
    x = values((2, 4, 3), dtype)
    for index_dtype in (np.int32, np.int64):
        indices = ND_INDICES.astype(index_dtype)
        for kind in KINDS:
            check(f"TensorScatter{kind}", x, indices, values((5, 3), dtype))
            check(f"ScatterNd{kind}", x, indices[:, :1], values((5, 4, 3), dtype))
            check(f"Scatter{kind}", x, indices[:, :1].reshape(5),
                  values((5, 4, 3), dtype))
    check("ScatterNd", indices, values((5, 3), dtype), (3, 4, 3))
    check("ScatterNd", indices[:2], values((2,), dtype), (2, 3))


def test_division_and_update_of_bools():
    x = values((3, 4), np.float32)
    divisors = np.float32(0.5) + np.abs(values((4, 4), np.float32))
    for op in ("TensorScatterDiv", "ScatterNdDiv"):
        check(op, x, ND_INDICES[:4, :1], divisors)
    check("ScatterDiv", x, np.array([2, 0, 2, 1]), divisors)
    flags = values((3, 4), np.bool_)
    check("TensorScatterUpdate", flags, ND_INDICES[:4, :1], values((4, 4), np.bool_))


@pytest.mark.parametrize("dtype", (np.float32, np.int32), ids=ids)
def test_index_add_and_fill(dtype):
    x = values((2, 4, 3), dtype)
    check("IndexAdd", x, np.array([3, 0, 3], np.int32), values((2, 3, 3), dtype), 1)
    check("IndexAdd", x, np.array([1, 1], np.int64), values((2, 4, 2), dtype), -1)
    check("IndexFill", x, 1, np.array([-1, 0, -1], np.int64), 7)
    check("IndexFill", x, -3, np.array(1, np.int32), -2.5)
    check("IndexFill", values((), dtype), 0, np.array([0], np.int32), 3)


@pytest.mark.parametrize("dtype", (np.float32, np.int32, np.int64), ids=ids)
def test_gathers(dtype):
    x = values((3, 4, 2), dtype)
    check("GatherD", x, 1, np.array([[[3, -1]], [[0, 2]]], np.int64))
    check("GatherD", x, -1, np.array([[[1, -2, 0]]], np.int32)[:, :, :2])
    check("GatherNd", x, ND_INDICES[:, :1].astype(np.int32) + 1)
    check("GatherNd", x, np.array([[[2, 3, 1], [0, 0, 0]]], np.int64))
    check("GatherNd", x, np.zeros((2, 0), np.int64))
    check("EmbeddingLookup", x, np.array([[4, 1], [0, 2]], np.int32), 1)
    check("EmbeddingLookup", x, np.array([-1, 3, 5], np.int64), -2)


def test_indices_out_of_range_decline():
    """The reference raises its error for each of these."""
    x = values((3, 4), np.float32)
    assert run("TensorScatterAdd", x, np.array([[3]]), values((1, 4), np.float32)) is None
    assert run("ScatterNdUpdate", x, np.array([[-1]]), values((1, 4), np.float32)) is None
    assert run("ScatterAdd", x, np.array([0, 3]), values((2, 4), np.float32)) is None
    assert run("ScatterNd", np.array([[0, 4]]), values((1,), np.float32), (3, 4)) is None
    assert run("IndexAdd", x, np.array([-1]), values((1, 4), np.float32), 0) is None
    assert run("IndexFill", x, 1, np.array([-5]), 1.0) is None
    assert run("GatherD", x, 0, np.array([[3]])) is None
    assert run("GatherNd", x, np.array([[0, 4]])) is None
    assert run("TensorScatterAdd", x, np.array([[0]]), values((2, 4), np.float32)) is None


@pytest.mark.parametrize("dtype", (np.float32, np.int32, np.int64), ids=ids)
def test_scatters_along_an_axis(dtype):
    x = values((3, 4, 2), dtype)
    # repeats within a line (3 twice, -1 = 3): combined in order
    index = np.array([[[3, 0], [-1, 1], [3, 3]], [[1, 2], [0, 0], [2, -4]]], np.int64)
    for reduce in ("NONE", "ADD", "MULTIPLY"):
        check("Scatter", x, 1, index, values((2, 3, 2), dtype), reduce)
        check("TensorScatterElements", x, index[:, :1].astype(np.int32),
              values((2, 1, 2), dtype), -2, reduce)
    check("Scatter", x, 0, index[:, :2, :1] % 3, values((2, 2, 1), dtype), "ADD")
    check("ScatterAddWithAxis", x, index, values((2, 3, 2), dtype), 1)
    check("InplaceIndexAdd", x, np.array([2, 2, 0], np.int32), values((3, 3, 2), dtype), 1)


def test_scatter_along_out_of_range_declines():
    x = values((3, 4), np.float32)
    assert run("Scatter", x, 1, np.array([[4]]), values((1, 1), np.float32)) is None
    assert run("ScatterAddWithAxis", x, np.array([[0, -5]]),
               values((1, 2), np.float32), 1) is None
    assert run("Scatter", x, 0, np.array([[0]]), values((1, 1), np.float32), "MAX") is None


@pytest.mark.parametrize("dtype", (np.float32, np.float64, np.int32, np.int64), ids=ids)
def test_copies_with_rows_written(dtype):
    x = values((3, 4, 2), dtype)
    rows, columns = np.array([2, -1, 2, 0], np.int64), np.array([1, 3, 1, 0], np.int32)
    for accumulate in (0, 1):                            # repeats: last wins / add up
        check("IndexPut", x, values((2,), dtype), (rows, columns), accumulate)
        check("IndexPut", x, values((1,), np.float32), (rows, columns[:1]), accumulate)
        check("IndexPut", x, values((4,), dtype), (rows, columns, rows % 2), accumulate)
    check("InplaceUpdateV2", x, rows, values((4, 4, 2), dtype))
    check("InplaceUpdateV2", x, np.array([1], np.int32), values((1, 4, 2), np.float64))
    check("InplaceScatterSrc", x, 1, np.array([[[3, 0]], [[-1, 2]]]),
          values((2, 2, 2), dtype))
    check("InplaceScatterSrc", x, -1, np.array([[[1], [0]]]), values((1, 2, 2), np.int32))
    cache, ids_ = values((6, 3), dtype), np.array([4, 9, -1, 0, 4], np.int32)
    check("UpdateCache", cache, ids_, values((5, 3), dtype), 6)   # 9 and -1 skipped
    check("UpdateCache", cache, ids_.reshape(5, 1), values((5, 3), dtype), 3)
    # runs of updates.shape[1] = 2 elements: a part of updates is never read
    check("UpdateCache", cache, np.array([[0, 8], [3, 1]]), values((2, 2, 3), dtype), 9)
    check("InplaceCopy", x, values((4, 1), np.float32))
    check("InplaceCopy", x, values((), np.bool_))


def test_copies_with_rows_written_decline():
    x = values((3, 4), np.float32)
    assert run("IndexPut", x, values((4,), np.float32), (np.array([3]),)) is None
    assert run("IndexPut", x, values((3,), np.float32), (np.array([1]),)) is None
    assert run("InplaceUpdateV2", x, np.array([0, -4]), values((2, 4), np.float32)) is None
    assert run("UpdateCache", x, np.array([2]), values((1, 5), np.float32), 3) is None
    assert run("InplaceScatterSrc", x, 0, np.array([[5]]), values((1, 1), np.float32)) \
        is None
    assert run("InplaceCopy", x, values((2, 4), np.float32)) is None
