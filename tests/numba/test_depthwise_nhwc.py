"""refinfer/ops/_kernels/separable.py's channel-last 3x3 depthwise kernel
(the inverted residual block's middle stage) against float64 NumPy: every
light activation, strides 1 and 2, borders on every side, channel counts
with and without a partial last vector, a range of output rows that leaves
the others alone, NaN and infinities through the vectors."""
import numpy as np
import pytest

from refinfer.ops._kernels import program, separable

TESTED = {"Conv2D"}   # the fused MobileNetV2 block's depthwise convolution
LIGHT = (program.ACT_NONE, program.ACT_RELU, program.ACT_RELU6,
         program.ACT_HSWISH, program.ACT_HSIGMOID)
rng = np.random.default_rng(31)


def _want(x, w, bias, stride, top, left, oh, ow, act):
    """The convolution in float64, zero padding, then act as
    program.activate_light computes it (on a copy in x's dtype)."""
    h, width, channels = x.shape
    padded = np.zeros((h + 2 * 3, width + 2 * 3, channels))
    padded[3:3 + h, 3:3 + width] = x
    y = np.broadcast_to(bias.astype(np.float64), (oh, ow, channels)).copy()
    for p in range(3):
        for q in range(3):
            rows = 3 - top + p + stride * np.arange(oh)
            cols = 3 - left + q + stride * np.arange(ow)
            y += w[p, q] * padded[rows][:, cols]
    y = y.astype(x.dtype).reshape(oh, -1)
    for i in range(oh):
        program.activate_light(y, i, 0, y.shape[1], act)
    return y.reshape(oh, ow, channels)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("channels", [1, 8, 12, 20, 33])
@pytest.mark.parametrize("stride", [1, 2])
@pytest.mark.parametrize("act", LIGHT)
def test_the_kernel_equals_numpy(dtype, channels, stride, act):
    for h, width, top, left in ((9, 11, 1, 1), (3, 3, 0, 0), (6, 13, 1, 0),
                                (2, 7, 1, 1)):
        x = rng.standard_normal((h, width, channels)).astype(dtype)
        w = rng.standard_normal((3, 3, channels)).astype(dtype)
        bias = rng.standard_normal(channels).astype(dtype)
        oh = (h + 2 * top - 3) // stride + 1
        ow = (width + 2 * left - 3) // stride + 1
        y = np.full((oh, ow, channels), np.nan, dtype)
        separable.depthwise3x3_nhwc(x, w, bias, y, stride, top, left, act, 0, oh)
        want = _want(x, w, bias, stride, top, left, oh, ow, act)
        tolerance = 1e-5 if dtype == np.float32 else 1e-12
        np.testing.assert_allclose(y, want, rtol=tolerance, atol=tolerance)


def test_a_range_of_rows_is_written_and_nothing_else():
    x, w = (rng.standard_normal(s).astype(np.float32) for s in ((10, 12, 16),
                                                                (3, 3, 16)))
    bias = rng.standard_normal(16).astype(np.float32)
    y = np.full((10, 12, 16), 7.0, np.float32)
    separable.depthwise3x3_nhwc(x, w, bias, y, 1, 1, 1, program.ACT_NONE, 3, 6)
    want = _want(x, w, bias, 1, 1, 1, 10, 12, program.ACT_NONE)
    np.testing.assert_allclose(y[3:6], want[3:6], rtol=1e-5, atol=1e-5)
    assert (y[:3] == 7).all() and (y[6:] == 7).all()


@pytest.mark.parametrize("act", LIGHT)
def test_special_values_go_through_as_numpy_has_them(act):
    """NaN and infinities inside the image (the vector path) and on its
    border (the scalar one): the same non-finite pattern as the reference
    (ReLU6 turns NaN into 0, as activate_light does)."""
    x = rng.standard_normal((8, 10, 24)).astype(np.float32)
    x[4, 5, 3], x[0, 0, 17], x[5, 2, 9], x[7, 9, 20] = np.nan, np.nan, np.inf, -np.inf
    w = rng.standard_normal((3, 3, 24)).astype(np.float32)
    bias = np.zeros(24, np.float32)
    y = np.empty((8, 10, 24), np.float32)
    with np.errstate(invalid="ignore"):
        separable.depthwise3x3_nhwc(x, w, bias, y, 1, 1, 1, act, 0, 8)
        want = _want(x, w, bias, 1, 1, 1, 8, 10, act)
    np.testing.assert_array_equal(np.isnan(y), np.isnan(want))
    np.testing.assert_array_equal(np.isinf(y), np.isinf(want))
    finite = np.isfinite(want)
    np.testing.assert_allclose(y[finite], want[finite], rtol=1e-5, atol=1e-5)
