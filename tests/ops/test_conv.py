"""Conv2D against a naive loop convolution and MindSpore-verified values."""
import itertools
import math

import numpy as np
import pytest


def same_pads(size, k, s, d):
    """MindSpore/TF SAME padding along one axis, straight from the spec."""
    out = math.ceil(size / s)
    total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def naive_conv(x, w, stride, dilation, pads, groups):
    """Direct definition: zero padding by bounds checks, float64 sums."""
    n_, c_in, h_, w_ = x.shape
    c_out, c_group, kh, kw = w.shape
    top, bottom, left, right = pads
    (sh, sw), (dh, dw) = stride, dilation
    oh = (h_ + top + bottom - (kh - 1) * dh - 1) // sh + 1
    ow = (w_ + left + right - (kw - 1) * dw - 1) // sw + 1
    per_group = c_out // groups
    out = np.zeros((n_, c_out, oh, ow))
    for n, o, i, j in itertools.product(range(n_), range(c_out), range(oh),
                                        range(ow)):
        g = o // per_group
        acc = 0.0
        for c, p, q in itertools.product(range(c_group), range(kh), range(kw)):
            h = i * sh + p * dh - top
            v = j * sw + q * dw - left
            if 0 <= h < h_ and 0 <= v < w_:
                acc += float(x[n, g * c_group + c, h, v]) \
                    * float(w[o, c, p, q])
        out[n, o, i, j] = acc
    return out


# (in channels, out channels, group): dense, grouped, depthwise, depthwise x2
CHANNELS = [(3, 4, 1), (4, 6, 2), (4, 4, 4), (3, 6, 3)]


@pytest.mark.parametrize("c_in,c_out,group", CHANNELS)
@pytest.mark.parametrize("pad_mode", ["valid", "same", "pad"])
@pytest.mark.parametrize("stride", [(1, 1), (2, 2), (2, 1)])
@pytest.mark.parametrize("dilation", [(1, 1), (2, 1)])
@pytest.mark.parametrize("kernel", [(3, 3), (2, 3)])
def test_conv2d_matches_naive(call, close, rng, c_in, c_out, group, pad_mode,
                              stride, dilation, kernel):
    x = rng.standard_normal((2, c_in, 6, 7))
    w = rng.standard_normal((c_out, c_in // group) + kernel)
    pad = (1, 2, 0, 1) if pad_mode == "pad" else (0, 0, 0, 0)
    if pad_mode == "same":
        pads = same_pads(6, kernel[0], stride[0], dilation[0]) \
            + same_pads(7, kernel[1], stride[1], dilation[1])
    else:
        pads = pad
    got = call("Conv2D", x, w, out_channel=c_out, kernel_size=kernel,
               mode=1, pad_mode=pad_mode, pad=pad,
               stride=(1, 1) + stride, dilation=(1, 1) + dilation,
               group=group, groups=group, format="NCHW")
    close(got, naive_conv(x, w, stride, dilation, pads, group), np.float64)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("c_in,c_out,group", CHANNELS)
def test_conv2d_dtypes(call, close, rng, dtype, c_in, c_out, group):
    x = rng.standard_normal((1, c_in, 5, 5)).astype(dtype)
    w = rng.standard_normal((c_out, c_in // group, 3, 3)).astype(dtype)
    got = call("Conv2D", x, w, pad_mode="same", stride=2, group=group)
    pads = same_pads(5, 3, 2, 1) * 2
    pads = (pads[0], pads[1], pads[0], pads[1])
    expected = naive_conv(x, w, (2, 2), (1, 1), pads, group)
    close(got, expected, dtype)


MINDSPORE_5X5 = np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5)


@pytest.mark.parametrize("attrs,weight,expected", [
    # MindSpore 2.7.1 CPU outputs: SAME with an even kernel pads bottom/right.
    (dict(pad_mode="same", stride=2), np.arange(1, 5).reshape(1, 1, 2, 2),
     [[41, 61, 31], [141, 161, 71], [62, 68, 24]]),
    (dict(pad_mode="same"), np.arange(1, 5).reshape(1, 1, 2, 2),
     [[41, 51, 61, 71, 31], [91, 101, 111, 121, 51],
      [141, 151, 161, 171, 71], [191, 201, 211, 221, 91],
      [62, 65, 68, 71, 24]]),
    (dict(pad_mode="pad", pad=(1, 0, 2, 0), dilation=2),
     np.arange(9).reshape(1, 1, 3, 3) - 4,
     [[120, 128, 161], [156, 159, 192]]),
])
def test_conv2d_mindspore_values(call, close, attrs, weight, expected):
    got = call("Conv2D", MINDSPORE_5X5, weight.astype(np.float32), **attrs)
    close(got, np.array(expected, np.float64).reshape((1, 1) + np.shape(
        expected)), np.float32)


def test_conv2d_depthwise_mindspore_values(call, close):
    x = np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4)
    w = np.array([1, -1, 2, 0.5, 0, 1, -2, 1], np.float32).reshape(2, 1, 2, 2)
    got = call("Conv2D", x, w, pad_mode="same", stride=2, group=2)
    close(got, [[[[9.5, 14.5], [29.5, 34.5]], [[-2, -2], [-2, -2]]]],
          np.float32)


@pytest.mark.parametrize("stride", [2, (2, 2), (1, 1, 2, 2), np.array([2, 2])])
@pytest.mark.parametrize("pad_mode", ["same", "SAME", "Same", 1])
def test_conv2d_argument_spellings(call, close, rng, stride, pad_mode):
    x = rng.standard_normal((1, 2, 7, 7))
    w = rng.standard_normal((3, 2, 3, 3))
    got = call("Conv2D", x, w, pad_mode=pad_mode, stride=stride)
    close(got, naive_conv(x, w, (2, 2), (1, 1), (1, 1, 1, 1), 1))


@pytest.mark.parametrize("pad_mode", ["pad", "PAD", 0])
@pytest.mark.parametrize("pad", [1, (1, 1), (1, 1, 1, 1)])
def test_conv2d_pad_spellings(call, close, rng, pad_mode, pad):
    x = rng.standard_normal((1, 2, 5, 4))
    w = rng.standard_normal((3, 2, 3, 3))
    got = call("Conv2D", x, w, pad_mode=pad_mode, pad=pad)
    close(got, naive_conv(x, w, (1, 1), (1, 1), (1, 1, 1, 1), 1))


def test_conv2d_valid_codes_and_groups_alias(call, close, rng):
    x = rng.standard_normal((1, 4, 5, 5))
    w = rng.standard_normal((4, 2, 3, 3))
    expected = naive_conv(x, w, (1, 1), (1, 1), (0, 0, 0, 0), 2)
    close(call("Conv2D", x, w, pad_mode=2, groups=2), expected)
    close(call("Conv2D", x, w, pad_mode="valid", group=2), expected)


def test_conv2d_prefers_pad_list_for_pad_mode(call, close, rng):
    x = rng.standard_normal((1, 2, 5, 5))
    w = rng.standard_normal((2, 2, 3, 3))
    got = call("Conv2D", x, w, pad_mode="pad", pad=(0, 0, 0, 0),
               pad_list=(2, 0, 1, 1))
    close(got, naive_conv(x, w, (1, 1), (1, 1), (2, 0, 1, 1), 1))


def test_conv2d_same_recomputes_padding(call, close, rng):
    x = rng.standard_normal((1, 2, 6, 6))
    w = rng.standard_normal((2, 2, 2, 2))
    got = call("Conv2D", x, w, pad_mode="same", pad_list=(5, 5, 5, 5))
    close(got, naive_conv(x, w, (1, 1), (1, 1), (0, 1, 0, 1), 1))


@pytest.mark.parametrize("group", [1, 2])
def test_conv2d_nhwc(call, close, rng, group):
    x = rng.standard_normal((2, 4, 6, 5))
    w = rng.standard_normal((4, 4 // group, 3, 2))
    expected = naive_conv(x, w, (2, 1), (1, 1), (0, 0, 0, 0), group)
    got = call("Conv2D", x.transpose(0, 2, 3, 1), w.transpose(0, 2, 3, 1),
               stride=(2, 1), group=group, format="NHWC")
    close(got, expected.transpose(0, 2, 3, 1))


def test_conv2d_empty_batch(call):
    y = call("Conv2D", np.zeros((0, 3, 5, 5), np.float32),
             np.ones((4, 3, 3, 3), np.float32), pad_mode="valid")
    assert y.shape == (0, 4, 3, 3) and y.dtype == np.float32


@pytest.mark.parametrize("attrs", [dict(kernel_size=(2, 2)),
                                   dict(out_channel=5), dict(group=2)])
def test_conv2d_rejects_inconsistent_attributes(call, attrs):
    x = np.zeros((1, 3, 5, 5), np.float32)
    w = np.zeros((4, 3, 3, 3), np.float32)
    with pytest.raises(ValueError):
        call("Conv2D", x, w, **attrs)


def test_conv2d_refuses_negative_padding(call):
    """Negative padding (a crop) is refused by name, by the reference and
    by the fast path's convolution alike (which computed a crop)."""
    from refinfer.ops._kernels.conv import fused_conv2d
    x, w = np.zeros((1, 3, 8, 8), np.float32), np.zeros((4, 3, 3, 3), np.float32)
    message = r"pads \(-5, 1, 1, 1\) must be >= 0"
    with pytest.raises(ValueError, match=message):
        call("Conv2D", x, w, pad_mode="pad", pad=(-5, 1, 1, 1))
    with pytest.raises(ValueError, match=message):
        fused_conv2d(x, None, w, None, 0, "PAD", (-5, 1, 1, 1), (1, 1),
                     (1, 1), 1)


def test_conv2d_window_larger_than_input(call):
    with pytest.raises(ValueError):
        call("Conv2D", np.zeros((1, 1, 2, 2)), np.zeros((1, 1, 3, 3)))
