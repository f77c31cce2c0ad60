"""The cuda kernels of refinfer/cuda/rnorm.py (RmsNorm, AddRmsNorm,
RotaryPositionEmbedding) equal their NumPy references in float32 and
float64 on small shapes; what they decline (float16, shapes the reference
refuses) runs the reference, error included."""
import numpy as np
import pytest
from test_cuda_elementwise import check, on_device

from refinfer import registry
from refinfer.cuda import rnorm

FLOATS = (np.float32, np.float64)
rng = np.random.default_rng(131)


def _normal(shape, dtype):
    return np.asarray(rng.standard_normal(shape) * 2, dtype)


def test_every_kernel_is_tested():
    assert set(rnorm.KERNELS) == {"RmsNorm", "AddRmsNorm", "RotaryPositionEmbedding"}


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_rms_norm(dtype):
    for shape, trailing in [((3, 8), 1), ((2, 3, 4), 2), ((5,), 1), ((0, 4), 1)]:
        x = _normal(shape, dtype)
        gamma = _normal(shape[len(shape) - trailing:], dtype)
        check("RmsNorm", x, gamma, 1e-5)
        check("AddRmsNorm", x, _normal(shape, dtype), gamma, 1e-6)


def test_rms_norm_refusals_and_declines():
    x = _normal((2, 4), np.float32)
    check("RmsNorm", x, _normal((3,), np.float32))      # not the trailing shape
    half = (x.astype(np.float16), _normal((4,), np.float16))
    assert rnorm.rms_norm(*on_device(half)) is None
    y, inverse = registry.get_op("RmsNorm").kernel("cuda")(*half)
    expected = registry.get_op("RmsNorm").reference(*half)
    np.testing.assert_allclose(y, expected[0], rtol=2e-3, atol=2e-3)
    assert y.dtype == np.float16 and inverse.dtype == np.float32


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("mode", [0, 1])
def test_rotary_position_embedding(dtype, mode):
    x = _normal((2, 3, 2, 6), dtype)
    for table in [(2, 3, 2, 6), (1, 1, 2, 6), (2, 6), (6,)]:
        check("RotaryPositionEmbedding", x, _normal(table, dtype),
              _normal(table, dtype), mode)


def test_rotary_position_embedding_refusals():
    x = _normal((1, 2, 2, 4), np.float32)
    table = _normal((2, 4), np.float32)
    check("RotaryPositionEmbedding", x, table, table, 2)          # no such mode
    check("RotaryPositionEmbedding", x[..., :3].copy(), table[:, :3].copy(),
          table[:, :3].copy(), 0)                                  # odd last axis
    check("RotaryPositionEmbedding", x[0], table, table, 0)        # 3-D x
    wide = _normal((3, 4), np.float32)
    assert rnorm.rotary_position_embedding(*on_device((x, wide, wide, 0))) is None
