"""The cuda kernel of Histogram (refinfer/cuda/histogram.py) equals its
NumPy reference exactly: given and own ranges, values on the bin edges
and outside the range, NaN (bin 0), a one-value range, float32 and
int32; float16 and what the reference refuses are declined."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import histogram

from cuda_check import check, run

rng = np.random.default_rng(1367)


def test_every_kernel_is_tested():
    assert set(histogram.KERNELS) == {"Histogram"}


@pytest.mark.parametrize("dtype", [np.float32, np.int32], ids=lambda d: np.dtype(d).name)
def test_histogram(dtype):
    x = (rng.standard_normal((4, 6)) * 4).astype(dtype)
    x.flat[:3] = [-2, 0, 3]                         # on the edges of the range
    check("Histogram", x, 5, -2.0, 3.0)
    check("Histogram", x, 7)                        # x's own range
    check("Histogram", x, 1, -1.0, 1.0)
    check("Histogram", np.full((3,), 2, dtype), 4)  # a one-value range: bin 0
    check("Histogram", np.zeros((0,), dtype), 3)


def test_nan_and_declines():
    x = np.array([np.nan, 1.0, 2.5, np.inf, -1.0], np.float32)
    check("Histogram", x, 3, 0.0, 3.0)
    check("Histogram", x, 4)
    check("Histogram", np.full((2,), np.nan, np.float32), 3)    # every value NaN
    with pytest.raises(ValueError, match="min <= max"):
        registry.get_op("Histogram").reference(x, 3, 2.0, 1.0)
    assert run("Histogram", x, 3, 2.0, 1.0) is None
    assert run("Histogram", x.astype(np.float16), 3) is None
