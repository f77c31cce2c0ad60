"""BiasAdd, BatchNorm, Dense and the matrix products."""
import itertools

import numpy as np
import pytest

from refinfer.registry import get_op

FLOATS = [np.float16, np.float32, np.float64]


def naive_matmul(a, b):
    """(M, K) @ (K, N) by explicit sums, float64."""
    m, k = a.shape
    n = b.shape[1]
    out = np.zeros((m, n))
    for i, j in itertools.product(range(m), range(n)):
        out[i, j] = sum(float(a[i, t]) * float(b[t, j]) for t in range(k))
    return out


# --- BiasAdd -----------------------------------------------------------------

@pytest.mark.parametrize("shape", [(2, 3), (2, 3, 4), (2, 3, 4, 5),
                                   (1, 3, 2, 2, 2), (0, 3, 2)])
@pytest.mark.parametrize("dtype", FLOATS + [np.int32, np.int64])
def test_bias_add_nchw(call, close, rng, shape, dtype):
    x = (rng.standard_normal(shape) * 10).astype(dtype)
    b = (rng.standard_normal(3) * 10).astype(dtype)
    expected = x.astype(np.float64).copy()
    for c in range(3):
        expected[:, c] += float(b[c])
    close(call("BiasAdd", x, b, 0), expected, dtype)


@pytest.mark.parametrize("data_format", [1, "NHWC", "nhwc"])
def test_bias_add_nhwc_uses_last_axis(call, close, rng, data_format):
    x = rng.standard_normal((2, 4, 5, 3))
    b = np.array([1.0, 20.0, 300.0])
    close(call("BiasAdd", x, b, data_format), x + b)


def test_bias_add_default_format_and_errors(call, close):
    x = np.zeros((2, 3, 2), np.float32)
    close(call("BiasAdd", x, np.array([1, 2, 3], np.float32)),
          np.array([1, 2, 3.0])[None, :, None] + np.zeros((2, 3, 2)),
          np.float32)
    with pytest.raises(ValueError):
        call("BiasAdd", x, np.zeros(2, np.float32))
    with pytest.raises(ValueError):
        call("BiasAdd", np.zeros(3, np.float32), np.zeros(3, np.float32))


@pytest.mark.parametrize("backend", ["reference", "numba"])
def test_bias_add_without_a_bias_tensor_names_it(backend):
    # A node that lost its bias input gets the int default 0 (issue 17).
    bias_add = get_op("BiasAdd").kernel(backend)
    with pytest.raises(TypeError, match="BiasAdd: bias must be a tensor, got 0"):
        bias_add(np.zeros((1, 3, 1, 1), np.float32), 0, "NCHW")


# --- BatchNorm ---------------------------------------------------------------

def bn_params(rng, c):
    return (rng.uniform(0.5, 2, c), rng.standard_normal(c),
            rng.standard_normal(c), rng.uniform(0.5, 2, c))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(2, 3), (2, 3, 4, 5), (1, 3, 2, 2, 2)])
def test_batch_norm_inference(call, close, rng, dtype, shape):
    x = rng.standard_normal(shape).astype(dtype)
    scale, bias, mean, var = (p.astype(np.float32) for p in bn_params(rng, 3))
    # The 9 inputs nn.BatchNorm2d exports in eval mode.
    out = call("BatchNorm", x, scale, bias, mean, var, False, 1e-5, 0.1, 0)
    assert isinstance(out, tuple) and len(out) == 5
    bshape = (1, 3) + (1,) * (len(shape) - 2)
    expected = ((x.astype(np.float64) - mean.reshape(bshape).astype(float))
                / np.sqrt(var.reshape(bshape).astype(float) + 1e-5)
                * scale.reshape(bshape) + bias.reshape(bshape))
    close(out[0], expected, dtype, **({"rtol": 1e-6, "atol": 1e-6}
                                      if dtype == np.float64 else {}))
    for extra in out[1:]:  # what MindSpore 2.7.1 CPU returns in inference
        close(extra, np.zeros(3), np.float32)


def test_batch_norm_nhwc_and_epsilon(call, close, rng):
    x = rng.standard_normal((2, 4, 5, 3))
    scale, bias, mean, var = bn_params(rng, 3)
    y = call("BatchNorm", x, scale, bias, mean, var, False, 0.5, 0.1,
             "NHWC")[0]
    close(y, (x - mean) / np.sqrt(var + 0.5) * scale + bias)


def test_batch_norm_training_uses_batch_statistics(call, close, rng):
    x = rng.standard_normal((4, 2, 3, 3))
    scale, bias, mean, var = bn_params(rng, 2)
    out = call("BatchNorm", x, scale, bias, mean, var, True, 1e-5, 0.1, 0)
    bm, bv = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))
    expected = ((x - bm[:, None, None]) / np.sqrt(bv[:, None, None] + 1e-5)
                * scale[:, None, None] + bias[:, None, None])
    close(out[0], expected)
    close(out[3], bm)
    close(out[4], bv)


# --- Dense -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS + [np.int32])
@pytest.mark.parametrize("with_bias", [True, False])
def test_dense(call, close, rng, dtype, with_bias):
    x = (rng.standard_normal((3, 4)) * 4).astype(dtype)
    w = (rng.standard_normal((5, 4)) * 4).astype(dtype)
    b = (rng.standard_normal(5) * 4).astype(dtype) if with_bias else None
    expected = naive_matmul(x, w.T)
    if with_bias:
        expected += b.astype(np.float64)
    close(call("Dense", x, w, b), expected, dtype,
          **({"rtol": 5e-3, "atol": 5e-2} if dtype == np.float16 else {}))


def test_dense_batched_and_vector_weight(call, close, rng):
    x = rng.standard_normal((2, 3, 4))
    w = rng.standard_normal((5, 4))
    b = rng.standard_normal(5)
    close(call("Dense", x, w, b), np.einsum("bik,ok->bio", x, w) + b)
    v = rng.standard_normal(4)
    y = call("Dense", x[0, 0], v, np.array(1.5))
    close(y, np.array(float(x[0, 0] @ v) + 1.5))


# --- MatMul / BatchMatMul / MatMulExt ----------------------------------------

@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("transpose_b", [False, True])
@pytest.mark.parametrize("dtype", FLOATS + [np.int32, np.int64])
def test_matmul(call, close, rng, transpose_a, transpose_b, dtype):
    a = (rng.standard_normal((3, 4)) * 4).astype(dtype)
    b = (rng.standard_normal((4, 2)) * 4).astype(dtype)
    a_in = a.T.copy() if transpose_a else a
    b_in = b.T.copy() if transpose_b else b
    got = call("MatMul", a_in, b_in, transpose_a, transpose_b)
    close(got, naive_matmul(a, b), dtype,
          **({"rtol": 5e-3, "atol": 5e-2} if dtype == np.float16 else {}))


def test_matmul_dense_export_form(call, close, rng):
    """nn.Dense exports MatMul(x, W, False, True)."""
    x, w = rng.standard_normal((2, 4)), rng.standard_normal((3, 4))
    close(call("MatMul", x, w, False, True), naive_matmul(x, w.T))
    with pytest.raises(ValueError):
        call("MatMul", x[None], w)


@pytest.mark.parametrize("a_shape,b_shape", [
    ((2, 3, 4), (2, 4, 5)), ((2, 1, 3, 4), (3, 4, 5)), ((3, 4), (2, 4, 5)),
    ((0, 3, 4), (0, 4, 2)), ((3, 4), (4, 5))])
@pytest.mark.parametrize("transpose_b", [False, True])
def test_batch_matmul_broadcasts(call, close, rng, a_shape, b_shape,
                                 transpose_b):
    a, b = rng.standard_normal(a_shape), rng.standard_normal(b_shape)
    batch = np.broadcast_shapes(a_shape[:-2], b_shape[:-2])
    ab = np.broadcast_to(a, batch + a_shape[-2:])
    bb = np.broadcast_to(b, batch + b_shape[-2:])
    expected = np.zeros(batch + (a_shape[-2], b_shape[-1]))
    for idx in np.ndindex(*batch):
        expected[idx] = naive_matmul(ab[idx], bb[idx])
    b_in = b.swapaxes(-1, -2).copy() if transpose_b else b
    close(call("BatchMatMul", a, b_in, False, transpose_b), expected)


def test_batch_matmul_transpose_a_and_int(call, close):
    a = np.arange(12, dtype=np.int32).reshape(2, 3, 2)
    b = np.arange(12, dtype=np.int32).reshape(2, 3, 2)
    expected = np.stack([naive_matmul(a[i].T, b[i]) for i in range(2)])
    close(call("BatchMatMul", a, b, True, False), expected.astype(np.int32))


@pytest.mark.parametrize("a_shape,b_shape,out_shape", [
    ((3,), (3,), ()), ((2,), (2, 3), (3,)), ((2, 3), (3,), (2,)),
    ((2, 2, 3), (3, 4), (2, 2, 4)), ((4, 1, 2, 3), (5, 3, 2), (4, 5, 2, 2))])
def test_matmul_ext_numpy_rules(call, close, rng, a_shape, b_shape,
                                out_shape):
    a, b = rng.standard_normal(a_shape), rng.standard_normal(b_shape)
    got = call("MatMulExt", a, b)
    expected = np.einsum("...ij,...jk->...ik",
                         a.reshape((1,) * (a.ndim == 1) + a_shape),
                         b.reshape(b_shape + (1,) * (b.ndim == 1)))
    close(got, expected.reshape(out_shape))


def test_matmul_ext_float16_and_int(call, close):
    a = np.array([[1, 2]], np.int32)
    b = np.array([[1, 2, 3], [4, 5, 7]], np.int32)
    close(call("MatMulExt", a, b), np.array([[9, 12, 17]], np.int32))
    close(call("MatMulExt", a.astype(np.float16), b.astype(np.float16)),
          [[9, 12, 17]], np.float16)


@pytest.mark.parametrize("backend", ["reference", "numba"])
@pytest.mark.parametrize("input, mat2, message", [
    ((2, 3), np.ones((3, 2), np.float32), r"MatMul: input must be a tensor, got \(2, 3\)"),
    (np.ones((2, 3), np.float32), True, "MatMul: mat2 must be a tensor, got True")])
def test_mat_mul_of_a_non_tensor_names_it(backend, input, mat2, message):
    # A tuple or bool where a tensor belongs reached .ndim (issue 17).
    with pytest.raises(TypeError, match=message):
        get_op("MatMul").kernel(backend)(input, mat2)
