"""The cuda kernels of the scans (refinfer/cuda/scan.py) equal their NumPy
references: every axis, exclusive and reverse, integer wrap-around, NaN in
the running extremes, 0-d and empty inputs; float16 is declined."""
import numpy as np
import pytest
from test_cuda_elementwise import check, on_device

from refinfer.cuda import scan

rng = np.random.default_rng(1333)
DTYPES = (np.float32, np.float64, np.int32, np.int8, np.uint8)


def _values(shape, dtype):
    if np.dtype(dtype).kind == "f":
        return np.asarray(rng.standard_normal(shape) * 2, dtype)
    return rng.integers(0 if np.dtype(dtype).kind == "u" else -40, 40, shape).astype(dtype)


def test_every_kernel_is_tested():
    assert set(scan.KERNELS) == {"CumSum", "CumProd", "CumsumExt", "Cummax", "Cummin"}


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", ["CumSum", "CumProd"])
def test_cumulative(op, dtype):
    x = _values((3, 4, 2), dtype)
    for axis in (0, 1, -1):
        for exclusive, reverse in [(False, False), (True, False), (False, True),
                                   (True, True)]:
            check(op, x, axis, exclusive, reverse)
    check(op, np.asarray(_values((), dtype)), 0, True, False)
    check(op, _values((2, 0), dtype), 1)
    check(op, x, 3)                                   # no such axis


def test_integer_sums_wrap():
    check("CumSum", np.array([100, 100, 100], np.int8), 0)
    check("CumProd", np.array([16, 16, 16], np.uint8), 0)


@pytest.mark.parametrize("dtype", [None, np.dtype(np.float64), np.dtype(np.int64)],
                         ids=str)
def test_cumsum_ext(dtype):
    for values in (_values((2, 5), np.int32), _values((2, 5), np.float32),
                   rng.integers(0, 2, (2, 5)).astype(bool)):
        if dtype is not None and not np.can_cast(values.dtype, dtype, "safe"):
            continue
        check("CumsumExt", values, 1, dtype)
    narrowing = (_values((3,), np.float64), 0, np.dtype(np.int32))
    assert scan.cumsum_ext(*on_device(narrowing)) is None


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", ["Cummax", "Cummin"])
def test_running_extremes(op, dtype):
    x = _values((4, 3), dtype)
    x[1] = x[0]                                       # ties: the latest index
    for axis in (0, 1):
        check(op, x, axis)
    check(op, np.asarray(_values((), dtype)), 0)


def test_running_extremes_keep_nan():
    x = np.array([1.0, np.nan, 3.0, 0.5, np.nan], np.float32)
    check("Cummax", x, 0)
    check("Cummin", np.concatenate([[np.nan], x]).astype(np.float64), 0)


def test_float16_declined_by_the_scan_itself():
    """scan() declines float16; the kernels take it through
    half.in_float32 (tests/cuda/test_cuda_half.py)."""
    half = on_device((np.ones(4, np.float16),))[0]
    assert scan.scan(half, 0, scan.SUM) is None
    assert scan.KERNELS["CumSum"](half, 0).dtype == np.float16
