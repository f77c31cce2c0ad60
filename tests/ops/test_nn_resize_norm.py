"""Resizes (per-pixel loops with TensorFlow's coordinate rules), normalisations
(LayerNorm, LayerNormExt, GroupNorm, InstanceNorm, BatchNormExt, L2Normalize),
Embedding, Dropout, BatchMatMulExt and LogSoftmaxExt against float64 formulas
written element by element."""
import itertools
import math

import numpy as np
import pytest

from tolerances import tolerance

from refinfer.registry import get_op


# --- resizes ------------------------------------------------------------------------

def scale(size_in, size_out, align_corners):
    if align_corners and size_out > 1:
        return (size_in - 1) / (size_out - 1)
    return size_in / size_out


def nearest_source(i, size_in, size_out, align_corners, half_pixel):
    src = (i + 0.5 if half_pixel else i) * scale(size_in, size_out, align_corners)
    index = math.floor(src + 0.5) if align_corners else math.floor(src)
    return min(max(index, 0), size_in - 1)


def linear_source(i, size_in, size_out, align_corners, half_pixel):
    """(low, high, weight of high)."""
    s = scale(size_in, size_out, align_corners)
    src = (i + 0.5) * s - 0.5 if half_pixel else i * s
    low = math.floor(src)
    return (min(max(low, 0), size_in - 1), min(max(math.ceil(src), 0), size_in - 1),
            src - low)


def naive_resize(x, size, mode, align_corners, half_pixel):
    h, w = x.shape[-2:]
    out = np.zeros(x.shape[:-2] + tuple(size))
    for i, j in itertools.product(range(size[0]), range(size[1])):
        if mode == "nearest":
            out[..., i, j] = x[..., nearest_source(i, h, size[0], align_corners,
                                                   half_pixel),
                               nearest_source(j, w, size[1], align_corners,
                                              half_pixel)]
            continue
        y0, y1, fy = linear_source(i, h, size[0], align_corners, half_pixel)
        x0, x1, fx = linear_source(j, w, size[1], align_corners, half_pixel)
        top = x[..., y0, x0] * (1 - fx) + x[..., y0, x1] * fx
        bottom = x[..., y1, x0] * (1 - fx) + x[..., y1, x1] * fx
        out[..., i, j] = top * (1 - fy) + bottom * fy
    return out


FLAGS = [(False, False), (True, False), (False, True)]
SIZES = [(5, 7), (2, 3), (3, 4), (1, 1), (8, 2)]


@pytest.mark.parametrize("align_corners,half_pixel", FLAGS)
@pytest.mark.parametrize("size", SIZES)
def test_resize_bilinear_v2(call, close, rng, align_corners, half_pixel, size):
    x = rng.standard_normal((2, 2, 3, 4))
    close(call("ResizeBilinearV2", x, size, align_corners, half_pixel),
          naive_resize(x, size, "linear", align_corners, half_pixel))


@pytest.mark.parametrize("align_corners,half_pixel", FLAGS)
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8])
def test_resize_nearest_neighbor_v2(call, rng, align_corners, half_pixel, size,
                                    dtype):
    x = rng.integers(0, 100, (1, 2, 3, 4)).astype(dtype)
    got = call("ResizeNearestNeighborV2", x, size, align_corners, half_pixel)
    expected = naive_resize(x, size, "nearest", align_corners, half_pixel)
    np.testing.assert_array_equal(got, expected.astype(dtype))
    assert got.dtype == dtype


@pytest.mark.parametrize("align_corners,half_pixel", FLAGS)
def test_resize_nearest_neighbor_ignores_half_pixel(call, rng, align_corners,
                                                    half_pixel):
    """MindSpore 2.7.1 CPU quirk: the older primitive ignores
    half_pixel_centers (golden case resize_nearest_half_pixel)."""
    x = rng.standard_normal((1, 1, 3, 4)).astype(np.float32)
    got = call("ResizeNearestNeighbor", x, (5, 7), align_corners, half_pixel)
    expected = naive_resize(x, (5, 7), "nearest", align_corners, False)
    np.testing.assert_array_equal(got, expected.astype(np.float32))


def test_resize_bilinear_float16(call, close, rng):
    x = rng.standard_normal((1, 1, 3, 4)).astype(np.float16)
    close(call("ResizeBilinearV2", x, (6, 5), False, True),
          naive_resize(x.astype(np.float64), (6, 5), "linear", False, True),
          np.float16)


def test_resize_bilinear_rejects_both_flags(call):
    with pytest.raises(ValueError):
        call("ResizeBilinearV2", np.zeros((1, 1, 2, 2)), (3, 3), True, True)


@pytest.mark.parametrize("mode,code,align,half", [
    ("align_corners", 1, True, False), ("half_pixel", 2, False, True),
    ("asymmetric", 0, False, False)])
def test_resize_linear1d(call, close, rng, mode, code, align, half):
    x = rng.standard_normal((2, 3, 5))
    expected = naive_resize(x[:, :, None, :], (1, 8), "linear", align,
                            half)[:, :, 0]
    close(call("ResizeLinear1D", x, (8,), mode), expected)
    close(call("ResizeLinear1D", x, (8,), code), expected)


def test_upsample(call, close, rng):
    x = rng.standard_normal((1, 2, 3, 4))
    close(call("UpsampleNearest2D", x, (5, 7), None),
          naive_resize(x, (5, 7), "nearest", False, False))
    close(call("UpsampleNearest2D", x, None, (2.0, 1.5)),
          naive_resize(x, (6, 6), "nearest", False, False))
    for align in (False, True):
        close(call("UpsampleBilinear2D", x, (5, 7), None, align),
              naive_resize(x, (5, 7), "linear", align, not align))
    x1 = rng.standard_normal((2, 3, 5))
    close(call("UpsampleNearest1D", x1, (9,)),
          naive_resize(x1[:, :, None], (1, 9), "nearest", False, False)[:, :, 0])
    x3 = rng.standard_normal((1, 1, 2, 3, 4))
    got = call("UpsampleTrilinear3D", x3, (4, 3, 4), None, True)
    close(got[:, :, ::3], x3[:, :, :, :, :], rtol=1e-12)  # corners align in depth


@pytest.mark.parametrize("backend", ["reference", "numba"])
@pytest.mark.parametrize("name, size, expected", [
    ("UpsampleNearest3D", (5, 3, 7), "3-D or 4-D or 5-D"),
    ("UpsampleBilinear2D", (5, 7), "3-D or 4-D"),
    ("UpsampleTrilinear3D", (5, 3, 7), "5-D")])
def test_upsample_of_a_wrong_rank_names_the_ranks_it_takes(backend, name, size,
                                                           expected):
    # x.ndim - 2 picked the resized axes, so a 0-d input was not checked.
    upsample = get_op(name).kernel(backend)
    with pytest.raises(ValueError, match=f"Upsample: {expected} input expected, "
                                         r"got float32\[\]"):
        upsample(np.zeros((), np.float32), size, None)
    with pytest.raises(TypeError, match="Upsample: x must be a tensor, got 3"):
        upsample(3, size, None)


@pytest.mark.parametrize("backend", ["reference", "numba"])
@pytest.mark.parametrize("name, args, label", [
    ("UpsampleBilinear2D", ((4, 6), None, False), "Upsample: x"),
    ("UpsampleLinear1D", ((6,), None, False), "Upsample: x"),
    ("UpsampleTrilinear3D", ((2, 4, 6), None, False), "Upsample: x"),
    ("ResizeLinear1D", ((6,),), "ResizeLinear1D: x"),
    ("ResizeBilinearV2", ((4, 6),), "ResizeBilinearV2: image")])
@pytest.mark.parametrize("dtype", [np.bool_, np.int32])
def test_linear_resizes_refuse_a_tensor_that_is_not_float(backend, name, args,
                                                          label, dtype):
    """Their weights are fractions: a bool input reached NumPy's boolean
    subtract (fuzz seed 84), an integer one was sampled with weights
    truncated to 0."""
    rank = {"UpsampleLinear1D": 3, "ResizeLinear1D": 3,
            "UpsampleTrilinear3D": 5}.get(name, 4)
    x = np.ones((1, 2, 3, 4, 5)[:rank], dtype)
    resize = get_op(name).kernel(backend)
    with pytest.raises(TypeError, match=f"{label} must be float16, float32, "
                                        f"float64, got {np.dtype(dtype).name}"):
        resize(x, *args)


# --- normalisations ------------------------------------------------------------------

def standardized(x, axes, eps):
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps), mean, var


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("norm_axis,params_axis", [(1, 1), (-1, -1), (2, 1),
                                                   (-2, -2)])
def test_layer_norm(call, close, rng, dtype, norm_axis, params_axis):
    x = rng.standard_normal((2, 3, 4, 5))
    gamma = rng.standard_normal(x.shape[params_axis:])
    beta = rng.standard_normal(x.shape[params_axis:])
    axes = tuple(range(norm_axis % 4, 4))
    z, mean, var = standardized(x, axes, 1e-5)
    y, got_mean, got_var = call("LayerNorm", x.astype(dtype), gamma.astype(dtype),
                                beta.astype(dtype), norm_axis, params_axis, 1e-5)
    tol = tolerance("LayerNorm", dtype)
    close(y, z * gamma + beta, dtype, **tol)
    close(got_mean, mean, dtype, **tol)
    close(got_var, var, dtype, **tol)


def test_layer_norm_ext(call, close, rng):
    x = rng.standard_normal((2, 3, 4))
    w, b = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    z, mean, var = standardized(x, (1, 2), 1e-5)
    y, got_mean, rstd = call("LayerNormExt", x, (3, 4), w, b, 1e-5)
    close(y, z * w + b)
    close(got_mean, mean)
    close(rstd, 1 / np.sqrt(var + 1e-5))
    close(call("LayerNormExt", x, (4,))[0], standardized(x, (2,), 1e-5)[0])
    with pytest.raises(ValueError):
        call("LayerNormExt", x, (3,))


@pytest.mark.parametrize("groups", [1, 2, 4])
@pytest.mark.parametrize("shape", [(2, 4, 3, 5), (3, 4), (1, 4, 6)])
def test_group_norm(call, close, rng, groups, shape):
    x = rng.standard_normal(shape)
    w, b = rng.standard_normal(4), rng.standard_normal(4)
    grouped = x.reshape(shape[0], groups, -1)
    z, mean, var = standardized(grouped, (2,), 1e-5)
    expected = z.reshape(shape) * w.reshape((-1,) + (1,) * (len(shape) - 2)) \
        + b.reshape((-1,) + (1,) * (len(shape) - 2))
    y, got_mean, rstd = call("GroupNorm", x, groups, w, b, 1e-5)
    close(y, expected)
    close(got_mean, mean.reshape(shape[0], groups))
    close(rstd, 1 / np.sqrt(var.reshape(shape[0], groups) + 1e-5))
    close(call("GroupNorm", x, groups)[0], z.reshape(shape))


def test_group_norm_rejects_bad_groups(call):
    with pytest.raises(ValueError):
        call("GroupNorm", np.zeros((1, 6, 2)), 4)


def test_instance_norm(call, close, rng):
    x = rng.standard_normal((2, 3, 4, 5))
    g, b = rng.standard_normal(3), rng.standard_normal(3)
    mean, var = rng.standard_normal(3), rng.uniform(0.5, 1.5, 3)
    z, _, _ = standardized(x, (2, 3), 1e-5)
    y, m, v = call("InstanceNorm", x, g, b, mean, var, epsilon=1e-5)
    close(y, z * g.reshape(-1, 1, 1) + b.reshape(-1, 1, 1))
    close(m, mean)
    close(v, var)


@pytest.mark.parametrize("training", [False, True])
def test_batch_norm_ext(call, close, rng, training):
    x = rng.standard_normal((4, 3, 2, 5))
    w, b = rng.standard_normal(3), rng.standard_normal(3)
    rm, rv = rng.standard_normal(3), rng.uniform(0.5, 1.5, 3)
    shape = (-1, 1, 1)
    if training:
        z, mean, var = standardized(x, (0, 2, 3), 1e-5)
        mean, var = mean.reshape(-1), var.reshape(-1)
    else:
        z = (x - rm.reshape(shape)) / np.sqrt(rv.reshape(shape) + 1e-5)
        mean, var = rm, rv
    y, got_mean, rstd = call("BatchNormExt", x, w, b, rm, rv, training, 0.1, 1e-5)
    close(y, z * w.reshape(shape) + b.reshape(shape))
    close(got_mean, mean)
    close(rstd, 1 / np.sqrt(var + 1e-5))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("axis", [0, 1, -1, [2]])
def test_l2_normalize(call, close, rng, dtype, axis):
    x = rng.standard_normal((3, 4, 2))
    x[0] = 0.001  # tiny rows take the epsilon floor
    a = axis[0] if isinstance(axis, list) else axis
    total = (x ** 2).sum(axis=a, keepdims=True)
    expected = x / np.sqrt(np.maximum(total, 1e-4))
    close(call("L2Normalize", x.astype(dtype), axis=axis, epsilon=1e-4),
          expected, dtype)


# --- embedding, dropout, matmul, log-softmax -----------------------------------------

def test_embedding(call, close, rng):
    table = rng.standard_normal((5, 3)).astype(np.float32)
    ids = np.array([[0, 4], [2, 2]])
    expected = np.array([[table[i] for i in row] for row in ids])
    close(call("Embedding", ids, table), expected, np.float32)
    norms = np.linalg.norm(expected.astype(np.float64), axis=-1, keepdims=True)
    renormed = expected * np.where(norms > 1.0, 1.0 / (norms + 1e-7), 1.0)
    close(call("Embedding", ids, table, None, 1.0), renormed, np.float32)
    with pytest.raises(IndexError, match=r"index 5 out of range \[0, 5\)"):
        call("Embedding", np.array([5]), table)


def test_dropout_is_identity_in_inference(call, rng):
    x = rng.standard_normal((2, 3)).astype(np.float32)
    y, mask = call("Dropout", x, 0.5)
    np.testing.assert_array_equal(y, x)
    np.testing.assert_array_equal(mask, np.ones_like(x))
    y, bits = call("DropoutExt", x, 0.3, 0, 0)
    np.testing.assert_array_equal(y, x)
    assert bits.dtype == np.uint8 and bits.shape == (1,) and bits[0] == 255


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int32])
def test_batch_mat_mul_ext(call, close, rng, dtype):
    a = rng.integers(-3, 4, (2, 3, 4)).astype(dtype)
    b = rng.integers(-3, 4, (2, 4, 5)).astype(dtype)
    expected = np.array([[[sum(float(a[n, i, k]) * float(b[n, k, j]) for k in range(4))
                           for j in range(5)] for i in range(3)] for n in range(2)])
    close(call("BatchMatMulExt", a, b), expected, dtype)
    with pytest.raises(ValueError):
        call("BatchMatMulExt", a[0], b[0])


@pytest.mark.parametrize("shape,dim,expected_axis", [
    ((3, 4), None, 1), ((2, 3, 4), None, 0), ((5,), None, 0), ((2, 3), 0, 0)])
def test_log_softmax_ext(call, close, rng, shape, dim, expected_axis):
    x = rng.standard_normal(shape)
    m = x.max(axis=expected_axis, keepdims=True)
    expected = x - m - np.log(np.exp(x - m).sum(axis=expected_axis, keepdims=True))
    close(call("LogSoftmaxExt", x, dim), expected)
    close(call("LogSoftmaxExt", x.astype(np.float16), dim, np.float32),
          expected, np.float32, **tolerance("LogSoftmaxExt", np.float32))
