"""The cuda kernels of GridSampler2D, GridSampler3D and ROIAlign
(refinfer/cuda/sample.py) equal their NumPy references: both
interpolations, the three paddings, align_corners, grid points outside
the image, a NaN in the image; ROIAlign with fixed and adaptive sample
counts, both end modes, rois past the edges; float32 and float64. What
they decline (float16, bad modes, a roi naming no batch) runs the
reference, error included."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import sample

from cuda_check import FLOATS, check, run, values

rng = np.random.default_rng(1373)
ids = lambda d: np.dtype(d).name     # noqa: E731


def test_every_kernel_is_tested():
    assert set(sample.KERNELS) == {"GridSampler2D", "GridSampler3D", "ROIAlign"}


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
def test_grid_sampler_2d(dtype, mode):
    x = values((2, 2, 4, 5), dtype)
    x[1, 0, 0, 0] = np.nan
    grid = rng.uniform(-1.3, 1.3, (2, 3, 2, 2)).astype(dtype)
    grid[0, 0, 0] = [0.25, -0.5]                     # a half: nearest rounds to even
    for padding in ("zeros", "border", "reflection"):
        for align in (False, True):
            check("GridSampler2D", x, grid, mode, padding, align)


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
def test_grid_sampler_3d(dtype):
    x = values((1, 2, 3, 4, 3), dtype)
    grid = rng.uniform(-1.2, 1.2, (1, 2, 2, 2, 3)).astype(dtype)
    for mode, padding, align in [("bilinear", "zeros", False),
                                 ("bilinear", "reflection", True),
                                 ("nearest", "border", False)]:
        check("GridSampler3D", x, grid, mode, padding, align)


def test_grid_sampler_declines():
    x, grid = values((1, 1, 3, 3), np.float32), values((1, 2, 2, 2), np.float32)
    assert run("GridSampler2D", x, grid, "bicubic", "zeros", False) is None
    assert run("GridSampler2D", x.astype(np.float16), grid.astype(np.float16)) is None
    assert run("GridSampler2D", x, grid[..., :1].copy()) is None


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
def test_roi_align(dtype):
    features = values((2, 3, 6, 7), dtype)
    rois = np.array([[0, 0.5, 1.0, 4.2, 3.5], [1, -2.0, 2.0, 9.0, 8.0],
                     [1, 3.0, 3.0, 3.0, 3.0], [0, 1.0, 0.2, 13.0, 11.5]], dtype)
    check("ROIAlign", features, rois, 2, 3, 1.0, 2, 1)
    check("ROIAlign", features, rois, 3, 2, 0.5, 0, 0)      # adaptive sample counts


def test_roi_align_declines():
    features = values((1, 2, 4, 4), np.float32)
    rois = np.array([[1, 0, 0, 2, 2]], np.float32)          # batch 1 of 1
    with pytest.raises(ValueError, match="names batch 1 of 1"):
        registry.get_op("ROIAlign").reference(features, rois, 2, 2, 1.0)
    assert run("ROIAlign", features, rois, 2, 2, 1.0) is None
    rois = np.array([[0, 0, 0, np.inf, 2]], np.float32)     # not finite
    assert run("ROIAlign", features, rois, 2, 2, 1.0) is None
