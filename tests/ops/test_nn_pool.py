"""MaxPool3D, AvgPool3D, MaxPool3DWithArgmax, the adaptive pools and the mint
pools against per-output-position loops (PyTorch's output-size and divisor
rules, which MindSpore 2.7.1's 3-D pools follow; see the golden cases)."""
import itertools
import math

import numpy as np
import pytest


def out_size(size, k, s, d, before, after, ceil_mode):
    span = size + before + after - (k - 1) * d - 1
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= size + before:
        out -= 1
    return out


def same_pads(size, k, s):
    out = math.ceil(size / s)
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2


def naive_pool(x, kernel, stride, pads, ceil_mode=False, dilation=None,
               reduce="max", include_pad=True, divisor=0):
    """(y, argmax) with argmax a flat index into the spatial axes."""
    rank = len(kernel)
    dilation = dilation or (1,) * rank
    spatial = x.shape[2:]
    out = [out_size(spatial[a], kernel[a], stride[a], dilation[a], *pads[a],
                    ceil_mode) for a in range(rank)]
    y = np.zeros(x.shape[:2] + tuple(out))
    arg = np.zeros(x.shape[:2] + tuple(out), np.int64)
    for n, c in itertools.product(*map(range, x.shape[:2])):
        for pos in itertools.product(*map(range, out)):
            starts = [pos[a] * stride[a] - pads[a][0] for a in range(rank)]
            cells = [tuple(starts[a] + t[a] * dilation[a] for a in range(rank))
                     for t in itertools.product(*map(range, kernel))]
            inside = [p for p in cells
                      if all(0 <= p[a] < spatial[a] for a in range(rank))]
            vals = [float(x[(n, c) + p]) for p in inside]
            if reduce == "max":
                best = int(np.argmax(vals))
                y[(n, c) + pos] = vals[best]
                arg[(n, c) + pos] = np.ravel_multi_index(inside[best], spatial)
            else:
                ends = [min(starts[a] + kernel[a], spatial[a] + pads[a][1])
                        for a in range(rank)]
                count = divisor or (math.prod(e - s for s, e in zip(starts, ends))
                                    if include_pad else len(vals))
                y[(n, c) + pos] = sum(vals) / count
    return y, arg


PAD_CASES = [  # pad_mode, pads attribute, ceil_mode
    ("VALID", (0,) * 6, False), ("SAME", (0,) * 6, False),
    ("PAD", (1, 0, 1, 1, 0, 1), False), ("PAD", (1, 1, 0, 1, 1, 0), True),
    ("CALCULATED", (0, 1, 1, 0, 1, 1), True)]


def resolved(x, kernel, stride, pad_mode, pads):
    if pad_mode == "SAME":
        return [same_pads(x.shape[2 + a], kernel[a], stride[a]) for a in range(3)]
    if pad_mode == "VALID":
        return [(0, 0)] * 3
    return [(pads[2 * a], pads[2 * a + 1]) for a in range(3)]


@pytest.mark.parametrize("pad_mode,pads,ceil_mode", PAD_CASES)
@pytest.mark.parametrize("kernel,stride", [((2, 2, 2), (2, 2, 2)),
                                           ((3, 2, 3), (2, 1, 2))])
def test_max_pool3d(call, close, rng, pad_mode, pads, ceil_mode, kernel, stride):
    x = rng.standard_normal((1, 2, 5, 4, 6))
    got = call("MaxPool3D", x, (1, 1) + kernel, (1, 1) + stride, pad_mode,
               pads, int(ceil_mode), "NCDHW")
    expected, _ = naive_pool(x, kernel, stride,
                             resolved(x, kernel, stride, pad_mode, pads),
                             ceil_mode and pad_mode != "SAME")
    close(got, expected)


@pytest.mark.parametrize("dtype", [np.float16, np.int32, np.uint8])
def test_max_pool3d_dtypes(call, dtype, rng):
    x = rng.integers(0, 100, (1, 1, 3, 4, 4)).astype(dtype)
    got = call("MaxPool3D", x, 2, 2, "PAD", (1, 0, 1, 0, 1, 0), 1)
    expected, _ = naive_pool(x, (2,) * 3, (2,) * 3, [(1, 0)] * 3, True)
    np.testing.assert_array_equal(got, expected.astype(dtype))
    assert got.dtype == dtype


@pytest.mark.parametrize("pad_mode,pads,ceil_mode", PAD_CASES)
@pytest.mark.parametrize("include_pad,divisor", [(True, 0), (False, 0),
                                                 (True, 3)])
def test_avg_pool3d(call, close, rng, pad_mode, pads, ceil_mode, include_pad,
                    divisor):
    x = rng.standard_normal((2, 1, 4, 5, 6))
    kernel, stride = (2, 3, 3), (2, 2, 2)
    mode = "PAD" if pad_mode == "CALCULATED" else pad_mode
    got = call("AvgPool3D", x, kernel, stride, mode, pads, ceil_mode,
               include_pad, divisor)
    expected, _ = naive_pool(x, kernel, stride,
                             resolved(x, kernel, stride, pad_mode, pads),
                             ceil_mode and mode == "PAD", reduce="avg",
                             include_pad=include_pad, divisor=divisor)
    close(got, expected)


def test_avg_pool3d_float16_accumulates_in_float32(call, close):
    x = np.full((1, 1, 2, 2, 64), 1000, np.float16)
    got = call("AvgPool3D", x, (2, 2, 64), 1)
    close(got, np.full((1, 1, 1, 1, 1), 1000.0), np.float16)


@pytest.mark.parametrize("pads,dilation,ceil_mode", [
    ((0, 1, 1), (1, 1, 1), False), ((0, 0, 0), (1, 2, 2), True),
    ((0, 0, 1), (1, 1, 2), True)])
def test_max_pool3d_with_argmax(call, close, rng, pads, dilation, ceil_mode):
    x = rng.permutation(2 * 2 * 3 * 5 * 6).reshape(2, 2, 3, 5, 6).astype(np.float32)
    kernel, stride = (1, 3, 3), (1, 2, 2)
    y, arg = call("MaxPool3DWithArgmax", x, kernel, stride, pads, dilation,
                  ceil_mode)
    exp_y, exp_arg = naive_pool(x, kernel, stride, [(p, p) for p in pads],
                                ceil_mode, dilation)
    close(y, exp_y, np.float32)
    np.testing.assert_array_equal(arg, exp_arg)
    assert arg.dtype == np.int64
    _, arg32 = call("MaxPool3DWithArgmax", x, kernel, stride, pads, dilation,
                    ceil_mode, argmax_type="int32")
    assert arg32.dtype == np.int32


def test_max_pool_nan_wins(call):
    x = np.array([1.0, np.nan, 3.0, 2.0], np.float32).reshape(1, 1, 1, 1, 4)
    y, arg = call("MaxPool3DWithArgmax", x, (1, 1, 2), (1, 1, 2), (0, 0, 0))
    assert np.isnan(y[..., 0]) and y[..., 1] == 3.0
    np.testing.assert_array_equal(arg.reshape(-1), [1, 2])


# --- adaptive pools -----------------------------------------------------------------

def naive_adaptive(x, out, reduce):
    rank = len(out)
    spatial = x.shape[-rank:]
    y = np.zeros(x.shape[:-rank] + tuple(out))
    arg = np.zeros(y.shape, np.int64)
    for pos in itertools.product(*map(range, out)):
        lo = [math.floor(p * spatial[a] / out[a]) for a, p in enumerate(pos)]
        hi = [math.ceil((p + 1) * spatial[a] / out[a]) for a, p in enumerate(pos)]
        cells = list(itertools.product(*[range(lo[a], hi[a]) for a in range(rank)]))
        for lead in itertools.product(*map(range, x.shape[:-rank])):
            vals = [float(x[lead + c]) for c in cells]
            if reduce == "max":
                best = int(np.argmax(vals))
                y[lead + pos] = vals[best]
                arg[lead + pos] = np.ravel_multi_index(cells[best], spatial)
            else:
                y[lead + pos] = sum(vals) / len(vals)
    return y, arg


@pytest.mark.parametrize("name", ["AdaptiveAvgPool2D", "AdaptiveAvgPool2DExt"])
@pytest.mark.parametrize("out", [(3, 4), (1, 1), (7, 6), (4, 2)])
def test_adaptive_avg_pool2d(call, close, rng, name, out):
    x = rng.standard_normal((2, 3, 7, 6))
    close(call(name, x, out), naive_adaptive(x, out, "avg")[0])


@pytest.mark.parametrize("out,keep", [((-1, 2), (7, 2)), ((3, -1), (3, 6))])
def test_adaptive_avg_pool2d_keeps_axes(call, close, rng, out, keep):
    x = rng.standard_normal((1, 2, 7, 6))
    close(call("AdaptiveAvgPool2D", x, out), naive_adaptive(x, keep, "avg")[0])


def test_adaptive_avg_pool_1d_3d_and_unbatched(call, close, rng):
    x = rng.standard_normal((2, 3, 4, 5, 7))
    close(call("AdaptiveAvgPool3D", x, (2, 3, 3)),
          naive_adaptive(x, (2, 3, 3), "avg")[0])
    close(call("AdaptiveAvgPool1D", x[0, 0, 0], 3),
          naive_adaptive(x[0, 0, 0], (3,), "avg")[0])
    close(call("AdaptiveAvgPool2D", x[0, 0], (2, 2)),
          naive_adaptive(x[0, 0], (2, 2), "avg")[0])


@pytest.mark.parametrize("name,out", [("AdaptiveMaxPool2D", (3, 4)),
                                      ("AdaptiveMaxPool2D", (2, 2)),
                                      ("AdaptiveMaxPool1D", (4,))])
def test_adaptive_max_pool(call, close, rng, name, out):
    x = rng.standard_normal((2, 3, 7, 6)[:2 + len(out)])
    y, arg = call(name, x, out)
    exp_y, exp_arg = naive_adaptive(x, out, "max")
    close(y, exp_y)
    np.testing.assert_array_equal(arg, exp_arg)


def test_adaptive_float16(call, close, rng):
    x = rng.standard_normal((1, 2, 5, 5)).astype(np.float16)
    close(call("AdaptiveAvgPool2D", x, (2, 2)), naive_adaptive(x, (2, 2), "avg")[0],
          np.float16)


# --- mint pools -----------------------------------------------------------------------

@pytest.mark.parametrize("ceil_mode", [False, True])
@pytest.mark.parametrize("include_pad,divisor", [(True, None), (False, None),
                                                 (True, 4)])
@pytest.mark.parametrize("kernel,stride,padding", [((3,), (2,), (1,)),
                                                   ((2, 3), None, (1, 0))])
def test_avg_pool2d_mint(call, close, rng, ceil_mode, include_pad, divisor,
                         kernel, stride, padding):
    x = rng.standard_normal((2, 2, 7, 6))
    k = kernel * 2 if len(kernel) == 1 else kernel
    s = k if stride is None else stride * 2
    p = padding * 2 if len(padding) == 1 else padding
    expected, _ = naive_pool(x, k, s, [(q, q) for q in p], ceil_mode,
                             reduce="avg", include_pad=include_pad,
                             divisor=divisor or 0)
    close(call("AvgPool2D", x, kernel, stride, padding, ceil_mode, include_pad,
               divisor), expected)
    close(call("AvgPool2D", x[0], kernel, stride, padding, ceil_mode,
               include_pad, divisor), expected[0])


def test_avg_pool_1d_and_3d_mint(call, close, rng):
    x = rng.standard_normal((2, 3, 9))
    expected, _ = naive_pool(x, (3,), (2,), [(1, 1)], True, reduce="avg")
    close(call("AvgPool1D", x, 3, 2, 1, True), expected)
    x = rng.standard_normal((1, 2, 4, 5, 6))
    expected, _ = naive_pool(x, (2, 2, 2), (2, 2, 2), [(0, 0)] * 3, reduce="avg")
    close(call("AvgPool3DExt", x, 2), expected)


@pytest.mark.parametrize("name", ["MaxPoolWithIndices", "MaxPoolWithMask"])
@pytest.mark.parametrize("kernel,strides,pads,dilation,ceil_mode", [
    (3, 2, 1, 1, False), (2, None, 0, 1, True), ((3, 2), (1, 2), (1, 0), (2, 1),
                                                 True)])
def test_max_pool_with_indices(call, close, rng, name, kernel, strides, pads,
                               dilation, ceil_mode):
    x = rng.standard_normal((2, 2, 7, 6))
    pair = (lambda v: (v, v) if np.isscalar(v) else tuple(v))
    k, p, d = pair(kernel), pair(pads), pair(dilation)
    s = k if strides is None else pair(strides)
    exp_y, exp_arg = naive_pool(x, k, s, [(q, q) for q in p], ceil_mode, d)
    y, arg = call(name, x, kernel, strides, pads, dilation, ceil_mode)
    close(y, exp_y)
    np.testing.assert_array_equal(arg, exp_arg)


@pytest.mark.parametrize("size,kernel,stride", [((7, 9), 3, 2), ((5, 5), 2, 2),
                                                ((4, 6), (3, 2), (1, 2))])
def test_max_pool_with_argmax_legacy_same_split(call, close, rng, size, kernel,
                                                stride):
    """SAME keeps the total padding but puts max((k - s) // 2, 0) first."""
    x = rng.standard_normal((2, 3) + size).astype(np.float32)
    k = (kernel, kernel) if np.isscalar(kernel) else kernel
    s = (stride, stride) if np.isscalar(stride) else stride
    pads = []
    for a in range(2):
        total = max((math.ceil(size[a] / s[a]) - 1) * s[a] + k[a] - size[a], 0)
        pads.append((max((k[a] - s[a]) // 2, 0), total - max((k[a] - s[a]) // 2, 0)))
    exp_y, exp_arg = naive_pool(x, k, s, pads)
    y, arg = call("MaxPoolWithArgmax", x, kernel, stride, "same")
    close(y, exp_y, np.float32)
    channel_offset = np.arange(3).reshape(1, 3, 1, 1) * size[0] * size[1]
    np.testing.assert_array_equal(arg, exp_arg + channel_offset)
    assert arg.dtype == np.int32


def test_max_pool_with_argmax_v2(call, close, rng):
    x = rng.standard_normal((1, 2, 7, 6))
    exp_y, exp_arg = naive_pool(x, (3, 3), (2, 2), [(1, 1)] * 2, True, (1, 2))
    y, arg = call("MaxPoolWithArgmaxV2", x, (1, 1, 3, 3), (1, 1, 2, 2),
                  (1, 1, 1, 1), (1, 1, 1, 2), True, 3)
    close(y, exp_y)
    np.testing.assert_array_equal(arg, exp_arg)
    assert arg.dtype == np.int32
