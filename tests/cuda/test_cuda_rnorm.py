"""The cuda kernels of refinfer/cuda/rnorm.py (RmsNorm, AddRmsNorm,
RotaryPositionEmbedding, ApplyRotaryPosEmb, InstanceNormV2, LRN) equal
their NumPy references in float32 and float64 on small shapes; what they
decline (float16, shapes the reference refuses) runs the reference, error
included."""
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
    assert set(rnorm.KERNELS) == {"RmsNorm", "AddRmsNorm", "RotaryPositionEmbedding",
                                  "ApplyRotaryPosEmb", "InstanceNormV2", "LRN"}


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


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("cos_format", [2, 3])
def test_apply_rotary_pos_emb(dtype, cos_format):
    """query (T, 2 heads * D) and key (B, S, 1 head * D), T = B * S = 6."""
    query, key = _normal((6, 2 * 4), dtype), _normal((2, 3, 4), dtype)
    cos, sin = _normal((6, 4), dtype), _normal((6, 4), dtype)
    check("ApplyRotaryPosEmb", query, key, cos, sin, np.arange(6), cos_format)


def test_apply_rotary_pos_emb_float16_computes_in_float32():
    query, key = _normal((6, 2 * 4), np.float16), _normal((6, 4), np.float16)
    cos, sin = _normal((6, 4), np.float16), _normal((6, 4), np.float16)
    check("ApplyRotaryPosEmb", query, key, cos, sin, np.arange(6), 2)


def test_apply_rotary_pos_emb_refusals():
    query, cos = _normal((6, 8), np.float32), _normal((6, 4), np.float32)
    check("ApplyRotaryPosEmb", query, query, cos, cos, np.arange(6), 0)   # a table
    check("ApplyRotaryPosEmb", query, query, cos[:5].copy(), cos[:5].copy(),
          np.arange(6), 2)                                            # 5 rows of 6
    assert rnorm.apply_rotary_pos_emb(*on_device((query, query, cos, cos)), None,
                                      0) is None


def test_rotary_position_embedding_refusals():
    x = _normal((1, 2, 2, 4), np.float32)
    table = _normal((2, 4), np.float32)
    check("RotaryPositionEmbedding", x, table, table, 2)          # no such mode
    check("RotaryPositionEmbedding", x[..., :3].copy(), table[:, :3].copy(),
          table[:, :3].copy(), 0)                                  # odd last axis
    check("RotaryPositionEmbedding", x[0], table, table, 0)        # 3-D x
    wide = _normal((3, 4), np.float32)
    assert rnorm.rotary_position_embedding(*on_device((x, wide, wide, 0))) is None


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("training", [True, False])
def test_instance_norm_v2(dtype, training):
    for shape in [(2, 3, 4, 5), (1, 2, 6), (2, 2)]:
        stats = (shape[0], shape[1]) + (1,) * (len(shape) - 2)
        gamma, beta, mean = (_normal(stats, dtype) for _ in range(3))
        variance = np.abs(_normal(stats, np.float32)) + 0.5
        check("InstanceNormV2", _normal(shape, dtype), gamma, beta, mean,
              variance, training, 0.1, 1e-3)


def test_instance_norm_v2_refuses_per_channel_statistics():
    x = _normal((2, 3, 4), np.float32)
    per_channel = _normal((1, 3, 1), np.float32)
    assert rnorm.instance_norm_v2(*on_device((x, *[per_channel] * 4))) is None
    check("InstanceNormV2", x, *[per_channel] * 4)


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_lrn(dtype):
    x = _normal((2, 7, 3, 2), dtype)
    check("LRN", x)
    check("LRN", x, 2, 2.0, 0.3, 0.75)
    check("LRN", x, 0, 1.0, 1e-4, 0.75)


def test_lrn_refusals():
    check("LRN", _normal((7, 3, 2), np.float32))                   # 3-D
    check("LRN", _normal((1, 2, 3, 2), np.float32), 5, 1.0, 1.0, 0.5, "WITHIN_CHANNEL")
