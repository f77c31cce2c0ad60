"""Padding and tensor-creating ops against explicit index arithmetic: Pad, PadV3,
MirrorPad, ConstantPadND, Range, Arange, LinSpace(Ext), Eye, Triu/Tril,
the *Like / Fill* / New* constants and TensorShape."""
import itertools
import math

import numpy as np
import pytest

from shape_helpers import DTYPES, loop_fill, same, values


# --- padding: the source index of every output element ---------------------------

def source(k, before, size, mode):
    """Input index that output index k (offset by ``before``) reads, or None
    for a constant fill."""
    i = k - before
    if 0 <= i < size:
        return i
    if mode == "constant":
        return None
    if mode == "edge":
        return min(max(i, 0), size - 1)
    if mode == "circular":
        return i % size
    period = 2 * size - 2 if mode == "reflect" else 2 * size
    i %= period
    if mode == "reflect":
        return i if i < size else period - i
    return i if i < size else period - 1 - i


def padded(x, widths, mode, value=0):
    """Pad by looping over output indices (negative widths crop)."""
    shape = tuple(d + b + a for d, (b, a) in zip(x.shape, widths))
    out = np.empty(shape, x.dtype)
    for index in itertools.product(*map(range, shape)):
        src = [source(k, b, d, mode)
               for k, (b, _), d in zip(index, widths, x.shape)]
        out[index] = value if None in src else x[tuple(src)]
    return out


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("paddings", [((0, 0), (1, 1), (2, 0)),
                                      ((1, 2), (0, 0), (0, 3))])
def test_pad(call, dtype, paddings):
    x = values((2, 3, 4), dtype)
    same(call("Pad", x, paddings=paddings), padded(x, paddings, "constant"))


@pytest.mark.parametrize("mode", ["REFLECT", "SYMMETRIC", "reflect"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8])
def test_mirror_pad(call, mode, dtype):
    x = values((3, 4), dtype)
    widths = ((1, 2), (3, 2)) if mode.upper() == "SYMMETRIC" else ((2, 1),
                                                                   (3, 2))
    got = call("MirrorPad", x, np.array(widths), mode=mode)
    same(got, padded(x, widths, mode.lower()))


def torch_widths(flat, ndim, contiguous=True):
    """(before, after) per axis from padding listed from the last axis."""
    half = len(flat) // 2
    pairs = [(flat[2 * i], flat[2 * i + 1]) if contiguous
             else (flat[i], flat[half + i]) for i in range(half)]
    return [(0, 0)] * (ndim - half) + pairs[::-1]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode,flat", [
    ("constant", (1, 2)), ("constant", (1, 0, 2, 1)), ("constant", (0, 1, 1, 0, 2, 2)),
    ("reflect", (1, 2)), ("reflect", (2, 1, 1, 2)), ("edge", (1, 2, 0, 3)),
    ("circular", (2, 1)), ("circular", (1, 3, 2, 0))])
def test_pad_v3(call, dtype, mode, flat):
    x = values((2, 3, 4), dtype)
    value = np.array(7).astype(dtype)
    widths = torch_widths(flat, 3)
    got = call("PadV3", x, flat, value, mode=mode)
    same(got, padded(x, widths, mode, value))


def test_pad_v3_non_contiguous_and_default_value(call):
    x = values((3, 4))
    widths = torch_widths((1, 0, 2, 1), 2, contiguous=False)
    got = call("PadV3", x, np.array([1, 0, 2, 1]), None,
               paddings_contiguous=False)
    same(got, padded(x, widths, "constant", 0))
    assert got.shape == (4, 7)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("flat", [(1, -2, -1, 0), (-1, -1), (0, 0, 2, 1)])
def test_constant_pad_nd_crops_negative(call, dtype, flat):
    x = values((3, 4), dtype)
    widths = torch_widths(flat, 2)
    crop = tuple(slice(max(-b, 0), d - max(-a, 0))
                 for (b, a), d in zip(widths, x.shape))
    grow = [(max(b, 0), max(a, 0)) for b, a in widths]
    value = 2 if dtype != np.bool_ else True
    same(call("ConstantPadND", x, flat, value),
         padded(x[crop], grow, "constant", value))


def test_pad_rejects_too_many_widths(call):
    with pytest.raises(ValueError):
        call("PadV3", values((2, 3)), (1, 1, 1, 1, 1, 1), None)


# --- ranges ------------------------------------------------------------------------

@pytest.mark.parametrize("start,end,step,dtype", [
    (1, 10, 3, np.int64), (5, 1, -2, np.int64), (0, 0, 1, np.int64),
    (0.1, 1.0, 0.3, np.float32), (2.0, -1.0, -0.75, np.float32),
    (np.array(1, np.int32), np.array(7, np.int32), np.array(3, np.int32),
     np.int64), (np.float64(1), 2, 0.25, np.float32)])
def test_range(call, start, end, step, dtype):
    count = math.ceil((float(end) - float(start)) / float(step))
    expected = np.array([float(start) + k * float(step) for k in range(count)])
    got = call("Range", start, end, step)
    assert got.dtype == dtype
    np.testing.assert_allclose(got, expected, rtol=1e-6)


@pytest.mark.parametrize("start,end,step", [(1, 5, 0), (5, 1, 1), (1, 5, -1)])
def test_range_rejects(call, start, end, step):
    with pytest.raises(ValueError):
        call("Range", start, end, step)


def test_range_maxlen(call):
    with pytest.raises(ValueError):
        call("Range", 0, 10, 1, 5)


@pytest.mark.parametrize("start,end,step,dtype,expected_dtype", [
    (0, 5, 2, None, np.int64), (0, 1, 0.25, None, np.float32),
    (3, 0, -1, np.float64, np.float64), (0, 4, 1, np.int8, np.int8)])
def test_arange(call, start, end, step, dtype, expected_dtype):
    count = math.ceil((end - start) / step)
    got = call("Arange", start, end, step, dtype)
    same(got, np.array([start + k * step for k in range(count)],
                       expected_dtype))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("start,stop,num", [(0.1, 1.7, 7), (1.0, 3.0, 1),
                                            (2.0, -2.0, 5), (0.0, 1.0, 0)])
def test_lin_space(call, close, dtype, start, stop, num):
    step = (stop - start) / (num - 1) if num > 1 else 0.0
    expected = np.array([start + k * step for k in range(num)])
    got = call("LinSpace", np.array(start, dtype), np.array(stop, dtype), num)
    close(got, expected, dtype)


@pytest.mark.parametrize("dtype,expected_dtype", [(None, np.float32),
                                                  (np.float64, np.float64)])
def test_lin_space_ext(call, close, dtype, expected_dtype):
    got = call("LinSpaceExt", 1, 2, 5, dtype)
    close(got, np.linspace(1.0, 2.0, 5), expected_dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n,m", [(3, 4), (2, 2), (0, 3)])
def test_eye(call, dtype, n, m):
    expected = np.array([[i == j for j in range(m)] for i in range(n)],
                        dtype).reshape(n, m)
    same(call("Eye", n, m, dtype), expected)
    same(call("Eye", n, m, {np.float16: 42, np.float32: 43, np.float64: 44,
                            np.int8: 32, np.int16: 33, np.int32: 34, np.int64: 35,
                            np.uint8: 37, np.bool_: 30}[dtype]), expected)


# --- triangles -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("diagonal", [0, 1, -1, 5, -5])
@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 3), (0, 2)])
def test_triangles(call, dtype, diagonal, shape):
    x = values(shape, dtype)
    zero = np.zeros((), dtype)

    def keep(upper):
        return lambda i: x[i] if ((i[-1] - i[-2] >= diagonal) if upper
                                  else (i[-1] - i[-2] <= diagonal)) else zero
    same(call("Triu", x, diagonal), loop_fill(shape, dtype, keep(True)))
    for name in ("Tril", "TrilExt"):
        same(call(name, x, diagonal), loop_fill(shape, dtype, keep(False)))


def test_triangles_reject_vectors(call):
    with pytest.raises(ValueError):
        call("Triu", np.arange(3))


# --- constants -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(2, 3), (), (0, 4)])
def test_like_ops(call, dtype, shape):
    x = values(shape, dtype)
    for name, fill in (("ZerosLike", 0), ("OnesLike", 1),
                       ("ZerosLikeExt", 0), ("OnesLikeExt", 1)):
        same(call(name, x), np.full(shape, fill, dtype))
    same(call("OnesLikeExt", x, np.float16), np.ones(shape, np.float16))
    same(call("ZerosLikeExt", x, 35), np.zeros(shape, np.int64))
    same(call("FullLike", x, 1), np.full(shape, 1, dtype))


@pytest.mark.parametrize("value,dtype,expected_dtype", [
    (1.5, None, np.float32), (2, None, np.int64), (True, None, np.bool_),
    (1.5, np.float16, np.float16), (7, 34, np.int32)])
def test_fill_scalar(call, value, dtype, expected_dtype):
    same(call("FillScalar", (2, 3), value, dtype),
         np.full((2, 3), value, expected_dtype))


@pytest.mark.parametrize("value", [np.array(2.5, np.float32),
                                   np.array([3], np.int8),
                                   np.array(True)])
def test_fill_v2(call, value):
    expected = np.full((2, 1, 3), value.reshape(()), value.dtype)
    same(call("FillV2", (2, 1, 3), value), expected)
    same(call("FillV2", np.array([2, 1, 3]), value), expected)


def test_fill_v2_rejects_vectors(call):
    with pytest.raises(ValueError):
        call("FillV2", (2,), np.array([1.0, 2.0]))


@pytest.mark.parametrize("dtype", DTYPES)
def test_new_ops(call, dtype):
    x = values((4,), dtype)
    same(call("NewOnes", x, (2, 3)), np.ones((2, 3), dtype))
    same(call("NewZeros", x, (2, 3), np.float64), np.zeros((2, 3)))
    same(call("NewFull", x, (3,), 1), np.full(3, 1, dtype))


@pytest.mark.parametrize("shape", [(2, 3, 4), (), (0, 5)])
def test_tensor_shape(call, shape):
    same(call("TensorShape", np.zeros(shape, np.float16)),
         np.array(shape, np.int64))
