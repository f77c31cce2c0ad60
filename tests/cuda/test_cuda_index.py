"""The cuda kernels of the data movement ops (refinfer/cuda/index.py) equal
their NumPy references: transposes, slices with steps and masks, splits,
broadcasts, tiles, joins, padding, gathers (negative indices; out of range
declines), one-hot, select with broadcasting, and every Cast rule
(MindSpore's float -> integer conversion included); float32, float64,
int32 and bool where the op moves any dtype."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import index

from cuda_check import FLOATS, check, run, values

ids = lambda d: np.dtype(d).name     # noqa: E731
DTYPES = FLOATS + (np.int32, np.bool_)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_views(dtype):
    x = values((2, 3, 4), dtype)
    check("Transpose", x, (2, 0, 1))
    check("Transpose", x, (-1, 1, 0))
    check("Slice", x, (0, 1, 1), (2, -1, 2))
    check("StridedSlice", x, (1, 2, 0), (2, -4, 4), (1, -1, 2))
    check("StridedSlice", x, (0, 1), (1, 3), (1, 1), 0, 0, 0, 2, 1)     # new axis, shrink
    check("StridedSlice", x, (0, 0), (0, 2), (1, 1), 0, 0, 1, 0, 0)     # ellipsis
    check("Split", x, 2, 2)
    check("Split", x, -2, 3)
    check("BroadcastTo", x[:, :1], (5, 2, 3, 4))
    check("Expand", x[:, :1], (2, -1, 4))
    check("BroadcastToView", x[:1], (3, 2, 3, 4))
    check("DynamicBroadcastTo", x[:, :, :1], (2, 3, 5))
    check("Tile", x, (2, 1, 3))
    check("Tile", x, (2,))
    check("Tile", x[0, 0], (2, 2))
    check("ReverseV2", x, (0, -1))
    check("ReverseV2", x, (1,))


def test_view_errors_decline():
    """The reference raises its error for these."""
    x = values((2, 3), np.float32)
    assert run("Slice", x, (0, 2), (1, 2)) is None
    assert run("Transpose", x, (0, 0)) is None
    assert run("Split", x, 1, 2) is None
    assert run("BroadcastTo", x, (4, 3)) is None
    assert run("ReverseV2", x, (0, -2)) is None


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_joins_and_padding(dtype):
    a, b = values((2, 3), dtype), values((2, 1), dtype)
    check("Concat", (a, b, a), 1)
    check("Concat", (a, a), -2)
    check("Stack", (a, a, a), 1)
    check("StackExt", (a, a), -1)
    check("Pack", (a, b[:, :1].repeat(3, 1)), 0)
    check("Pad", values((2, 3, 2), dtype), ((1, 0), (0, 2), (1, 1)))


def test_concat_of_empty_parts():
    check("Concat", (values((2, 0), np.float32), values((2, 3), np.float32)), 1)


@pytest.mark.parametrize("dtype", FLOATS + (np.int32,), ids=ids)
def test_gather(dtype):
    x = values((4, 3, 2), dtype)
    for indices, axis in [(np.array([3, 0, -1, 1]), 0), (np.array([[2, -3], [0, 1]]), 1),
                          (np.array(1), -1)]:
        check("Gather", x, indices.astype(np.int32), axis)
        check("Gather", x, indices.astype(np.int64), axis)


@pytest.mark.parametrize("dtype", (np.float32, np.int64), ids=ids)
def test_gather_with_batch_axes(dtype):
    """batch_dims 1 and 2 (negative counted from the indices' rank), an
    empty batch; batch axes that differ or exceed the axis decline."""
    x = values((2, 3, 4, 2), dtype)
    check("Gather", x, np.array([[1, -1, 0], [3, 3, 2]], np.int32), 2, 1)
    check("Gather", x, np.array([[[0, 1], [3, 2], [1, 1]]] * 2, np.int64), 2, -1)
    check("Gather", x[:0], np.zeros((0, 2), np.int32), 2, 1)
    assert run("Gather", x, np.zeros((3, 2), np.int32), 2, 1) is None
    assert run("Gather", x, np.zeros((2, 2), np.int32), 0, 1) is None
    assert run("Gather", x, np.array([[0, 4]] * 2, np.int32), 2, 1) is None


def test_index_select():
    x = values((4, 3), np.float32)
    check("IndexSelect", x, 1, np.array([2, 0, -1, 2], np.int64))
    check("IndexSelect", x, -2, np.array(3, np.int32))
    assert run("IndexSelect", x, 0, np.array([4], np.int64)) is None


def test_gather_out_of_range_declines():
    x = values((4, 3), np.float32)
    with pytest.raises(IndexError, match="out of range"):
        registry.get_op("Gather").reference(x, np.array([1, 4]), 0)
    assert run("Gather", x, np.array([1, 4]), 0) is None
    assert run("Gather", x, np.array([-5]), 0) is None


def test_one_hot():
    indices = np.array([[0, 2], [-1, 5]], np.int32)
    for axis in (-1, 0, 1, 2):
        check("OneHot", indices, 4, np.array(1.5, np.float32),
              np.array(-1.0, np.float32), axis)
    check("OneHot", indices.astype(np.int64), 3, np.array(1, np.int32),
          np.array(0, np.int32))


@pytest.mark.parametrize("dtype", FLOATS + (np.int32,), ids=ids)
def test_select(dtype):
    check("Select", values((2, 3), np.bool_), values((2, 3), dtype),
          values((2, 3), dtype))
    check("Select", values((2, 1), np.bool_), values((3,), dtype), values((2, 3), dtype))


CASTS = [(np.float32, np.int32), (np.float32, np.uint8), (np.float64, np.int64),
         (np.float64, np.int8), (np.float32, np.uint32), (np.float32, np.bool_),
         (np.float64, np.float32), (np.float32, np.float16), (np.int32, np.float32),
         (np.int64, np.int8), (np.bool_, np.float32), (np.int32, np.bool_)]


@pytest.mark.parametrize("source, target", CASTS, ids=str)
def test_cast(source, target):
    if np.dtype(source).kind == "f":
        x = np.array([0.0, -0.0, 1.7, -1.7, 300.0, -300.0, 3e9, -3e9, 1e20, np.nan,
                      np.inf, -np.inf, 65504.0, 1e-40], source)
    else:
        x = values((3, 4), source)
    check("Cast", x, np.dtype(target))


def test_table_is_declared():
    assert all(registry.get_op(op).kernels["cuda"] is kernel
               for op, kernel in index.KERNELS.items())


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_tril(dtype):
    x = values((2, 3, 4), dtype)
    for diagonal in (0, 1, -1, 5, -4):
        check("Tril", x, diagonal)
    check("TrilExt", x[0], 0)
