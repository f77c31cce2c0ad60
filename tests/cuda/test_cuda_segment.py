"""The cuda kernels of the unsorted and sorted segment reductions
(refinfer/cuda/segment.py) equal their NumPy references: empty segments,
negative ids dropped, NaN, integer wrap-around, integer means truncated;
ids out of range, unsorted or negative (sorted ones) raise the
reference's error."""
import numpy as np
import pytest
from test_cuda_elementwise import check, on_device

from refinfer.cuda import segment

rng = np.random.default_rng(1337)
OPS = sorted(op for op in segment.KERNELS if op.startswith("Unsorted"))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int8],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", OPS)
def test_segments(op, dtype):
    x = np.asarray(rng.standard_normal((6, 3)) * 5, dtype)
    check(op, x, np.array([0, 2, 0, -1, 2, 2], np.int32), 4)    # segment 1, 3 empty
    check(op, x.reshape(2, 3, 3), rng.integers(-1, 3, (2, 3)).astype(np.int64), 3)
    check(op, x[:, 0].copy(), np.array([1, 1, 0, 0, 1, 0], np.int32), 2)


@pytest.mark.parametrize("op", OPS)
def test_segments_nan_and_refusals(op):
    x = np.array([1.0, np.nan, 3.0, -2.0], np.float32)
    check(op, x, np.array([0, 0, 1, 1], np.int32), 2)
    check(op, x, np.array([0, 2, 1, 1], np.int32), 2)              # id 2 of 2
    check(op, x, np.array([0, 1], np.int32), 2)                     # not leading
    assert segment.KERNELS[op](*on_device((x, np.array([0, 5, 1, 1], np.int32))),
                               3) is None


def test_integer_sums_wrap():
    x = np.array([100, 100, 100], np.int8)
    check("UnsortedSegmentSum", x, np.zeros(3, np.int32), 1)
    check("UnsortedSegmentProd", x, np.zeros(3, np.int32), 1)


SORTED = ["SegmentMax", "SegmentMean", "SegmentMin", "SegmentProd", "SegmentSum"]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int8],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", SORTED)
def test_sorted_segments(op, dtype):
    x = np.asarray(rng.standard_normal((6, 3)) * 5, dtype)
    check(op, x, np.array([0, 0, 2, 2, 2, 4], np.int32))    # segments 1, 3 empty
    check(op, x[:, 0].copy(), np.array([1, 1, 1, 3, 3, 3], np.int64))
    check(op, x.reshape(6, 3, 1), np.arange(6, dtype=np.int32))


@pytest.mark.parametrize("op", SORTED)
def test_sorted_segments_refusals(op):
    x = np.array([1.0, np.nan, 3.0, -2.0], np.float32)
    check(op, x, np.array([0, 0, 1, 1], np.int32))
    check(op, x, np.array([0, 2, 1, 1], np.int32))              # not ascending
    check(op, x, np.array([-1, 0, 1, 1], np.int32))             # negative
    check(op, x, np.array([0, 1], np.int32))                    # not one per row
    check(op, np.zeros((0, 2), np.float32), np.zeros(0, np.int32))
    assert segment.KERNELS[op](*on_device((x, np.array([0, 2, 1, 1], np.int32)))) \
        is None


def test_integer_mean_wraps_and_truncates():
    x = np.array([100, 100, 100, -7, 2], np.int8)
    check("SegmentMean", x, np.array([0, 0, 0, 1, 1], np.int32))
