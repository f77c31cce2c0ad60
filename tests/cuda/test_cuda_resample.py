"""The cuda kernels of the Upsample ops (refinfer/cuda/resample.py) equal
their NumPy references: every rank, output sizes and scales, align_corners
both ways, float and integer inputs; refusals raise the reference's error,
float16 linear resizes are declined."""
import numpy as np
import pytest
from test_cuda_elementwise import check, on_device

from refinfer.cuda import resample

rng = np.random.default_rng(1331)


def _image(shape, dtype):
    return np.asarray(rng.standard_normal(shape) * 4, dtype)


def test_every_kernel_is_tested():
    assert set(resample.KERNELS) == {
        "UpsampleNearest1D", "UpsampleNearest2D", "UpsampleNearest3D",
        "UpsampleLinear1D", "UpsampleBilinear2D", "UpsampleTrilinear3D"}


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8],
                         ids=lambda d: np.dtype(d).name)
def test_upsample_nearest(dtype):
    check("UpsampleNearest1D", _image((1, 2, 5), dtype), (8,), None)
    check("UpsampleNearest2D", _image((1, 2, 3, 4), dtype), (5, 3), None)
    check("UpsampleNearest2D", _image((2, 1, 3, 3), dtype), None, (2.0, 1.5))
    check("UpsampleNearest3D", _image((1, 1, 2, 3, 2), dtype), None, (2.0,))


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("align_corners", [False, True])
def test_upsample_linear(dtype, align_corners):
    check("UpsampleLinear1D", _image((1, 2, 4), dtype), (7,), None, align_corners)
    check("UpsampleBilinear2D", _image((1, 2, 3, 4), dtype), (5, 6), None,
          align_corners)
    check("UpsampleBilinear2D", _image((1, 1, 4, 4), dtype), None, (0.5,),
          align_corners)
    check("UpsampleTrilinear3D", _image((1, 1, 2, 2, 3), dtype), (3, 4, 2), None,
          align_corners)


def test_upsample_refusals_and_declines():
    check("UpsampleNearest2D", _image((2, 3, 4), np.float32), (4, 4), None)  # 3-D
    check("UpsampleBilinear2D", _image((1, 1, 2, 2), np.float32), None, None)
    check("UpsampleBilinear2D", _image((1, 1, 2, 2), np.float32), (0, 3), None)
    half = (_image((1, 1, 2, 2), np.float16), (3, 3), None, False)
    assert resample.KERNELS["UpsampleBilinear2D"](*on_device(half)) is None
