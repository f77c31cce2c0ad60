"""The cuda kernels of Cross (refinfer/cuda/cross.py) and NextAfter
(refinfer/cuda/next_after.py) equal their references: Cross along every
axis of length 3 with broadcasts, in floats (within tolerance) and
integers that wrap (exactly); NextAfter bit for bit on both sides of 0,
at 0, +-inf, NaN, equal values and the largest float, with a Python
number; what the references refuse declines."""
import numpy as np
import pytest
from cuda_check import check, run

from refinfer.cuda import cross, next_after  # noqa: F401  (declares their kernels)

rng = np.random.default_rng(1409)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int64],
                         ids=lambda d: np.dtype(d).name)
def test_cross(dtype):
    def values(shape):
        return np.asarray(rng.standard_normal(shape) * 30, dtype)
    a, b = values((2, 3, 4)), values((2, 3, 4))
    check("Cross", a, b)                                # dim: the first axis of 3
    check("Cross", a, b, 1)
    check("Cross", values((3, 3)), values((3,)), -1)    # broadcast
    check("Cross", values((4, 1, 3)), values((2, 3)), 2)
    assert run("Cross", a, b, 2) is None                # an axis of length 4
    assert run("Cross", a, b.astype(np.float16), 1) is None


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_next_after(dtype):
    big = np.finfo(dtype).max
    x = np.asarray([0.0, -0.0, 0.0, 1.0, 1.0, -1.0, -1.0, np.inf, -np.inf, big, 2.5,
                    np.nan, 3.0, 1e-40], dtype)
    y = np.asarray([1.0, -1.0, -1.0, 2.0, 0.0, 0.0, -2.0, 0.0, 0.0, np.inf, 2.5,
                    1.0, np.nan, -1.0], dtype)
    got = run("NextAfter", x, y)
    np.testing.assert_array_equal(got.view(f"i{got.itemsize}"),
                                  np.nextafter(x, y).view(f"i{got.itemsize}"))
    check("NextAfter", np.asarray(rng.standard_normal((2, 4)), dtype),
          np.asarray(rng.standard_normal(4), dtype))
    check("NextAfter", x, 0.5)
    assert run("NextAfter", x, y.astype(np.float16)) is None
    assert run("NextAfter", x.astype(np.float16), y.astype(np.float16)) is None
