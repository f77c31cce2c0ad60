"""LRN, Im2Col, MaxUnpool2D and InstanceNormV2 against element loops in
float64, per dtype, with their clear errors."""
import itertools

import numpy as np
import pytest

FLOATS = ["float32", "float16", "float64"]


def sample(rng, shape, dtype, low=-3.0, high=3.0):
    return rng.uniform(low, high, shape).astype(dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("radius, bias, alpha, beta",
                         [(5, 1.0, 1.0, 0.5), (1, 2.0, 0.1, 0.75), (0, 1.0, 1.0, 1.0)])
def test_lrn(call, close, rng, dtype, radius, bias, alpha, beta):
    x = sample(rng, (2, 5, 2, 3), dtype)
    wide = x.astype(np.float64)
    want = np.empty_like(wide)
    for c in range(5):
        window = wide[:, max(c - radius, 0):c + radius + 1]
        want[:, c] = wide[:, c] / (bias + alpha * (window ** 2).sum(1)) ** beta
    close(call("LRN", x, depth_radius=radius, bias=bias, alpha=alpha, beta=beta), want,
          dtype)
    with pytest.raises(ValueError, match=r"LRN: norm_region must be ACROSS_CHANNELS"):
        call("LRN", x, norm_region="WITHIN_CHANNEL")


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "uint8"])
@pytest.mark.parametrize("kernel, stride, dilation, pads", [
    ((2, 2), (1, 1), (1, 1), (1, 1, 1, 1)), ((3, 2), (2, 1), (1, 2), (1, 1, 2, 2)),
    ((1, 3), (1, 2), (1, 1), (0, 0, 0, 0))])
def test_im2col(call, close, rng, dtype, kernel, stride, dilation, pads):
    x = rng.integers(0, 9, (2, 2, 5, 4)).astype(dtype)
    got = call("Im2Col", x, ksizes=kernel, strides=stride, dilations=dilation, pads=pads)
    padded = np.pad(x, ((0, 0), (0, 0), pads[:2], pads[2:]))
    oh = (padded.shape[2] - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
    ow = (padded.shape[3] - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1
    want = np.zeros((2, 2, kernel[0] * kernel[1], oh * ow), dtype)
    for i, j, h, w in itertools.product(range(kernel[0]), range(kernel[1]), range(oh),
                                        range(ow)):
        want[:, :, i * kernel[1] + j, h * ow + w] = padded[
            :, :, h * stride[0] + i * dilation[0], w * stride[1] + j * dilation[1]]
    close(got, want, dtype)


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32"])
@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_max_unpool2d(call, close, rng, dtype, data_format):
    x = rng.integers(-9, 9, (2, 3, 2, 2)).astype(dtype)
    index = np.stack([rng.permutation(16)[:4].reshape(2, 2) for _ in range(6)]
                     ).reshape(2, 3, 2, 2)
    want = np.zeros((2, 3, 16), dtype)
    for n, c, h, w in itertools.product(range(2), range(3), range(2), range(2)):
        want[n, c, index[n, c, h, w]] = x[n, c, h, w]
    want = want.reshape(2, 3, 4, 4)
    if data_format == "NHWC":
        x, index, want = (a.transpose(0, 2, 3, 1) for a in (x, index, want))
    close(call("MaxUnpool2D", x, index, ksize=2, data_format=data_format), want, dtype)
    with pytest.raises(ValueError, match=r"MaxUnpool2D: argmax values must lie in "
                                         r"\[0, 16\) for an output plane of \(4, 4\)"):
        call("MaxUnpool2D", x, index + 16, ksize=2, data_format=data_format)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("training", [False, True])
def test_instance_norm_v2(call, close, rng, dtype, training):
    x = sample(rng, (2, 3, 4, 2), dtype)
    gamma, beta, mean = (sample(rng, (2, 3, 1, 1), dtype) for _ in range(3))
    variance = sample(rng, (2, 3, 1, 1), dtype, 0.5, 2.0)
    y, m, v = call("InstanceNormV2", x, gamma, beta, mean, variance, training, 0.1, 1e-3)
    wide = x.astype(np.float64)
    if training:
        mean = wide.mean((2, 3), keepdims=True)
        variance = wide.var((2, 3), keepdims=True)
    want = (wide - mean) / np.sqrt(variance.astype(np.float64) + 1e-3) * gamma + beta
    tolerance = {"rtol": 1e-2, "atol": 1e-2} if dtype == "float16" else {}
    close(y, want, dtype, **tolerance)
    close(m, mean, dtype, **tolerance)
    close(v, variance, dtype, **tolerance)
