"""The cuda kernels of refinfer/cuda/moments.py (LogSumExp, Nansum, Std,
ReduceStd, LpNorm, Trace, Cdist) equal their NumPy references: every axis
set, keepdim, NaN and infinities, corrections past the count; what they
decline runs the reference, error included."""
import numpy as np
import pytest
from test_cuda_elementwise import check, on_device

from refinfer.cuda import moments

FLOATS = (np.float32, np.float64)
rng = np.random.default_rng(1339)
AXES = [None, (), (0,), (1,), (-1,), (0, 2), (2, 0, 1)]


def _normal(shape, dtype):
    return np.asarray(rng.standard_normal(shape) * 3, dtype)


def test_every_kernel_is_tested():
    assert set(moments.KERNELS) == {"LogSumExp", "Nansum", "Std", "ReduceStd",
                                    "LpNorm", "Trace", "Cdist"}


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_reductions(dtype):
    x = _normal((2, 3, 4), dtype)
    x[0, 1, 2] = np.nan
    for axes in AXES:
        for keep in (False, True):
            if axes is not None:
                check("LogSumExp", x, axes, keep)
                check("LogSumExp", np.abs(x), axes, keep)
            check("Nansum", x, axes, keep)
            check("Std", x, axes, 1, keep)
            check("ReduceStd", x, () if axes is None else axes, True, keep)
            if axes:
                check("LpNorm", x, axes, 2, keep)
    check("Std", x, (1,), 0)
    check("Std", x, (1,), 3)                      # correction = n: inf and NaN
    check("ReduceStd", x[1], (0,), False)
    for p in (0, 1, 3, 0.5, np.inf):
        check("LpNorm", np.where(x > 1, 0, x).astype(dtype), (1, 2), p)
    check("LogSumExp", np.array([[-np.inf, -np.inf], [np.inf, 1.0]], dtype), (1,))
    check("Nansum", np.asarray(_normal((), dtype)), None)


def test_reduction_refusals_and_declines():
    x = _normal((2, 3), np.float32)
    check("LogSumExp", x, (2,))                   # no such axis
    check("Std", x, (0, 0))                       # repeated
    check("LpNorm", x, (5,))
    check("LogSumExp", np.zeros((0, 3), np.float32), (0,))
    assert moments.nansum(*on_device((np.arange(4, dtype=np.int32),))) is None
    assert moments.nansum(*on_device((x,)), None, False, np.dtype(np.float64)) is None


@pytest.mark.parametrize("dtype", FLOATS + (np.int32, np.int8, np.uint8),
                         ids=lambda d: np.dtype(d).name)
def test_trace(dtype):
    for shape in [(3, 3), (2, 5), (4, 1)]:
        check("Trace", (rng.standard_normal(shape) * 60).astype(dtype))
    check("Trace", np.full((3, 3), 100, np.int8))  # wraps
    check("Trace", _normal((2, 2, 2), np.float32))  # 3-D: the reference raises


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_cdist(dtype):
    x1, x2 = _normal((2, 3, 4), dtype), _normal((2, 5, 4), dtype)
    x2[0, 1] = x1[0, 2]
    for p in (2.0, 1.0, 0.0, np.inf, 0.5, 3.0):
        check("Cdist", x1, x2, p)
    check("Cdist", x1[0], x2[0])
    check("Cdist", x1, x2[..., :3].copy())          # widths differ: refused
    check("Cdist", x1, x2, -1.0)
