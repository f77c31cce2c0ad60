"""MaxPool and AvgPool against naive loops and MindSpore-verified values."""
import itertools
import math

import numpy as np
import pytest

from refinfer.registry import get_op


def naive_pool(x, kernel, stride, pad_mode, reduce):
    """Apply ``reduce`` to the in-bounds values of every window (padding is
    never part of a window's values: -inf for max, not counted for mean)."""
    n_, c_, h_, w_ = x.shape
    (kh, kw), (sh, sw) = kernel, stride
    if pad_mode == "VALID":
        oh, ow, top, left = (h_ - kh) // sh + 1, (w_ - kw) // sw + 1, 0, 0
    else:
        oh, ow = math.ceil(h_ / sh), math.ceil(w_ / sw)
        top = max((oh - 1) * sh + kh - h_, 0) // 2
        left = max((ow - 1) * sw + kw - w_, 0) // 2
    out = np.zeros((n_, c_, oh, ow))
    for n, c, i, j in itertools.product(range(n_), range(c_), range(oh),
                                        range(ow)):
        rows = [i * sh + p - top for p in range(kh)]
        cols = [j * sw + q - left for q in range(kw)]
        values = [float(x[n, c, h, v]) for h in rows for v in cols
                  if 0 <= h < h_ and 0 <= v < w_]
        out[n, c, i, j] = reduce(values)
    return out


def mean(values):
    return sum(values) / len(values)


POOLS = [("MaxPool", max), ("AvgPool", mean)]


@pytest.mark.parametrize("op,reduce", POOLS)
@pytest.mark.parametrize("pad_mode", ["VALID", "SAME"])
@pytest.mark.parametrize("kernel", [(1, 1), (2, 2), (3, 3), (2, 3)])
@pytest.mark.parametrize("stride", [(1, 1), (2, 2), (3, 2)])
@pytest.mark.parametrize("hw", [(5, 5), (6, 7)])
def test_pool_matches_naive(call, close, rng, op, reduce, pad_mode, kernel,
                            stride, hw):
    x = rng.standard_normal((2, 3) + hw)
    got = call(op, x, kernel_size=(1, 1) + kernel, strides=(1, 1) + stride,
               pad_mode=pad_mode, format="NCHW")
    close(got, naive_pool(x, kernel, stride, pad_mode, reduce), np.float64)


@pytest.mark.parametrize("op,reduce", POOLS)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_pool_dtypes(call, close, rng, op, reduce, dtype):
    x = rng.standard_normal((1, 2, 7, 6)).astype(dtype)
    got = call(op, x, kernel_size=3, strides=2, pad_mode="SAME")
    close(got, naive_pool(x, (3, 3), (2, 2), "SAME", reduce), dtype)


X_1_TO_25 = np.arange(1, 26, dtype=np.float32).reshape(1, 1, 5, 5)


@pytest.mark.parametrize("op,x,kernel,stride,expected", [
    # MindSpore 2.7.1 CPU: SAME average pooling ignores the padding.
    ("AvgPool", X_1_TO_25, 3, 2,
     [[4, 5.5, 7], [11.5, 13, 14.5], [19, 20.5, 22]]),
    ("AvgPool", X_1_TO_25, 2, 2,
     [[4, 6, 7.5], [14, 16, 17.5], [21.5, 23.5, 25]]),
    ("MaxPool", -X_1_TO_25, 3, 2,
     [[-1, -2, -4], [-6, -7, -9], [-16, -17, -19]]),
    ("MaxPool", -X_1_TO_25, 2, 2,
     [[-1, -3, -5], [-11, -13, -15], [-21, -23, -25]]),
])
def test_pool_same_mindspore_values(call, close, op, x, kernel, stride,
                                    expected):
    got = call(op, x, kernel_size=kernel, strides=stride, pad_mode="SAME")
    close(got, np.array(expected, np.float64)[None, None], np.float32)


@pytest.mark.parametrize("op,reduce", POOLS)
@pytest.mark.parametrize("kernel", [2, (2, 2), (1, 1, 2, 2)])
@pytest.mark.parametrize("pad_mode", ["same", "SAME", 1])
def test_pool_argument_spellings(call, close, rng, op, reduce, kernel,
                                 pad_mode):
    x = rng.standard_normal((1, 2, 5, 5))
    got = call(op, x, kernel_size=kernel, strides=kernel, pad_mode=pad_mode)
    close(got, naive_pool(x, (2, 2), (2, 2), "SAME", reduce))


def test_avg_pool_primitive_function_inputs(call, close, rng):
    """nn.AvgPool2d exports AvgPool(x, (k, k), (s, s), 2, 0)."""
    x = rng.standard_normal((1, 2, 6, 6))
    got = call("AvgPool", x, (3, 3), (1, 1), 2, 0)
    close(got, naive_pool(x, (3, 3), (1, 1), "VALID", mean))


@pytest.mark.parametrize("op,reduce", POOLS)
def test_pool_nhwc(call, close, rng, op, reduce):
    x = rng.standard_normal((2, 3, 5, 6))
    got = call(op, x.transpose(0, 2, 3, 1), kernel_size=2, strides=2,
               pad_mode="SAME", data_format="NHWC")
    close(got, naive_pool(x, (2, 2), (2, 2), "SAME", reduce)
          .transpose(0, 2, 3, 1))


def test_max_pool_integer_padding_never_wins(call, close):
    x = -np.arange(1, 10, dtype=np.int32).reshape(1, 1, 3, 3) * 1000
    got = call("MaxPool", x, kernel_size=2, strides=2, pad_mode="SAME")
    close(got, [[[[-1000, -3000], [-7000, -9000]]]], np.int32)


def test_max_pool_propagates_nan(call):
    x = np.zeros((1, 1, 2, 2), np.float32)
    x[0, 0, 1, 1] = np.nan
    y = call("MaxPool", x, kernel_size=2, strides=2)
    assert np.isnan(y).all()


@pytest.mark.parametrize("op", ["MaxPool", "AvgPool"])
def test_pool_rejects_pad_mode_pad_and_small_input(call, op):
    x = np.zeros((1, 1, 4, 4), np.float32)
    with pytest.raises(ValueError):
        call(op, x, kernel_size=2, strides=2, pad_mode="PAD")
    with pytest.raises(ValueError):
        call(op, x, kernel_size=5, strides=1, pad_mode="VALID")
    with pytest.raises(ValueError):
        call(op, x[0], kernel_size=2)


@pytest.mark.parametrize("backend", ["reference", "numba"])
@pytest.mark.parametrize("name, arguments, message", [
    ("MaxPool", ((2, 2), (0, 1), "VALID"), r"window stride \(0, 1\) must be >= 1"),
    ("MaxPool", ((2, 2), (1, 0), "SAME"), r"window stride \(1, 0\) must be >= 1"),
    ("AvgPool", ((0, 2), (1, 1), "VALID"), r"window kernel \(0, 2\) must be >= 1"),
    ("Conv2D", (None, None, 1, "VALID", (0, 0, 0, 0), (0, 0), (1, 1)),
     r"window stride \(0, 0\) must be >= 1"),
    ("Conv2D", (None, None, 1, "SAME", (0, 0, 0, 0), (1, 1), (1, 0)),
     r"window dilation \(1, 0\) must be >= 1")])
def test_a_window_of_zero_is_a_clear_error(backend, name, arguments, message):
    # A stride of 0 divided by zero in the window arithmetic (issue 17).
    op = get_op(name).kernel(backend)
    x = np.ones((1, 2, 5, 5), np.float32)
    operands = (x, np.ones((3, 2, 2, 2), np.float32)) if name == "Conv2D" else (x,)
    with pytest.raises(ValueError, match=message):
        op(*operands, *arguments)
