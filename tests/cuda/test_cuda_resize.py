"""The cuda kernels of the resizes (refinfer/cuda/resize.py) equal their
NumPy references: up and down, every align_corners / half_pixel_centers
convention, 1-D (ResizeLinear1D's modes), nearest of integers; float32,
float64 and float16 (computed in float32); ResizeBicubic of floats and
integers in its three conventions."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import resize

from cuda_check import FLOATS, check, run, values

ids = lambda d: np.dtype(d).name     # noqa: E731
FLAGS = [(False, False), (True, False), (False, True)]


@pytest.mark.parametrize("dtype", FLOATS + (np.float16,), ids=ids)
@pytest.mark.parametrize("flags", FLAGS, ids=str)
def test_bilinear(dtype, flags):
    x = values((1, 2, 3, 4), dtype)
    check("ResizeBilinearV2", x, (5, 7), *flags)
    check("ResizeBilinearV2", x, (2, 3), *flags)


@pytest.mark.parametrize("dtype", FLOATS + (np.int32,), ids=ids)
@pytest.mark.parametrize("flags", FLAGS + [(True, True)], ids=str)
def test_nearest(dtype, flags):
    x = values((1, 2, 3, 4), dtype)
    check("ResizeNearestNeighborV2", x, (5, 7), *flags)
    check("ResizeNearestNeighbor", x, (2, 3), *flags)


@pytest.mark.parametrize("mode", ["align_corners", "half_pixel", "asymmetric"])
def test_linear_1d(mode):
    check("ResizeLinear1D", values((2, 3, 5), np.float32), (9,), mode)


def test_errors_are_the_references():
    x = values((1, 1, 3, 3), np.float32)
    with pytest.raises(ValueError, match="cannot both be set"):
        run("ResizeBilinearV2", x, (4, 4), True, True)
    with pytest.raises(ValueError, match=r"output size \(0, 4\) must be positive"):
        run("ResizeBilinearV2", x, (0, 4))


def test_table_is_declared():
    assert all(registry.get_op(op).kernels["cuda"] is kernel
               for op, kernel in resize.KERNELS.items())


@pytest.mark.parametrize("dtype", FLOATS + (np.int32, np.uint8),
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("flags", [(False, False), (True, False), (False, True)])
def test_bicubic(dtype, flags):
    x = values((1, 2, 4, 5), dtype)
    check("ResizeBicubic", x, (6, 3), *flags)            # up along H, down along W
    check("ResizeBicubic", x, (1, 7), *flags)


def test_bicubic_declines():
    x = values((1, 1, 3, 3), np.float32)
    assert run("ResizeBicubic", x, (4, 4), True, True) is None    # the reference refuses
    assert run("ResizeBicubic", x.astype(np.float16), (4, 4)) is None
    assert run("ResizeBicubic", x[0], (4, 4)) is None
