"""The cuda kernels of refinfer/cuda/compact.py (results whose size depends
on the values: a count read back, then a fill) equal their NumPy
references: NonZero(Ext), MaskedSelect with broadcasting, MaskedScatter,
ListDiff, SubAndFilter, Unique(WithPad) with repeats and NaN,
UniqueConsecutive flat and along an axis, TrilIndices and TriuIndices;
float32, float64 and the int dtypes, empty results, and the declines."""
import numpy as np
import pytest

from cuda_check import check, run, values

from refinfer.cuda import compact

ids = lambda d: np.dtype(d).name     # noqa: E731
DTYPES = (np.float32, np.float64, np.int32, np.int64)


def test_positions_span_several_chunks(monkeypatch):
    monkeypatch.setattr(compact, "CHUNKS", 4)
    keep = values((37,), np.bool_)
    positions, ranks = compact.kept_positions(compact.device.to_device(keep))
    np.testing.assert_array_equal(positions.copy_to_host(), np.flatnonzero(keep))
    np.testing.assert_array_equal(ranks.copy_to_host(), np.cumsum(keep) - 1)


@pytest.mark.parametrize("dtype", DTYPES + (np.bool_,), ids=ids)
def test_nonzero(dtype):
    x = values((3, 4, 2), dtype) * np.asarray(values((3, 4, 2), np.bool_), dtype)
    check("NonZero", x)
    check("NonZeroExt", x)
    check("NonZero", np.zeros((2, 3), dtype))            # none: (0, 2)
    check("NonZeroExt", np.ones((), dtype))
    assert run("NonZero", np.ones((), dtype)) is None    # rank 0: the reference raises


@pytest.mark.parametrize("dtype", DTYPES + (np.bool_,), ids=ids)
def test_masked_select_and_scatter(dtype):
    x, mask = values((3, 4), dtype), values((3, 4), np.bool_)
    check("MaskedSelect", x, mask)
    check("MaskedSelect", x, mask[:1])                   # mask broadcast
    check("MaskedSelect", x[:, :1], mask)                # input broadcast
    check("MaskedSelect", x, mask.astype(np.int32))      # a nonzero mask
    check("MaskedScatter", x, mask, values((14,), dtype))
    check("MaskedScatter", x, mask[1], values((12,), dtype))
    assert run("MaskedScatter", x, np.ones((3, 4), bool), values((5,), dtype)) is None


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_list_diff_and_unique(dtype):
    x = np.array([3, 1, 3, 2, 1, 5, 0, 2], dtype)
    check("ListDiff", x, np.array([1, 5, 7], dtype))
    check("ListDiff", x, np.array([1, 5], dtype), np.dtype(np.int64))
    check("ListDiff", x, x)                              # nothing left
    for sample in (x, values((20,), dtype), x[:0]):
        check("Unique", sample)
        check("UniqueWithPad", sample, np.asarray(-1, dtype))
    assert run("Unique", x.reshape(2, 4)) is None        # 2-D: the reference raises


def test_unique_treats_nan_as_one_value():
    x = np.array([np.nan, 1.0, np.nan, -0.0, 0.0, 1.0], np.float32)
    check("Unique", x)
    check("UniqueConsecutive", x, True, True)            # NaN != NaN: runs of one


@pytest.mark.parametrize("dtype", (np.int32, np.int64), ids=ids)
def test_sub_and_filter(dtype):
    x = np.array([4, -3, 7, 10, 5, 6, 12], dtype)
    check("SubAndFilter", x, 5, 4)
    check("SubAndFilter", x, 0, 4)                       # none kept
    assert run("SubAndFilter", x.reshape(1, 7), 5, 4) is None


@pytest.mark.parametrize("dtype", DTYPES + (np.bool_,), ids=ids)
def test_unique_consecutive(dtype):
    x = np.array([[1, 1, 0, 0, 2], [1, 1, 0, 2, 2], [1, 1, 0, 2, 2]]).astype(dtype)
    for dim in (None, 0, 1, -1):
        check("UniqueConsecutive", x, True, True, dim)
    check("UniqueConsecutive", x, False, False)
    check("UniqueConsecutive", x[:0], True, True)


@pytest.mark.parametrize("op", ("TrilIndices", "TriuIndices"))
def test_triangle_indices(op):
    for row, col, offset in ((4, 3, 0), (3, 5, 1), (4, 4, -2), (0, 3, 0), (2, 3, 9)):
        check(op, row, col, offset)
    check(op, 3, 3, 0, np.dtype(np.int64))
    assert run(op, -1, 3) is None                        # the reference raises
