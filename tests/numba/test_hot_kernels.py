"""The hot-path Numba kernels (elementwise, activations, convolution,
pooling, softmax, layer norm, reductions, matrix products) equal their NumPy
references on random shapes and dtypes, including the inputs they hand back
to the reference (other dtypes, layouts, broadcasts).

Kernels compile once per signature (about half a second) and are cached on
disk, so the cases keep to float32 and float64 and to few array ranks.
"""
import numba
import numpy as np
import pytest

from refinfer.ops._kernels import gemm, packed, vectors
from refinfer.ops._kernels import program as _fast
from refinfer.registry import get_op

from kernel_check import FLOATS, check, normal, rng


# -- elementwise ------------------------------------------------------------------------------
BINARY = ("Add", "AddV2", "Sub", "Mul", "Muls", "RealDiv", "Div", "Maximum", "Minimum", "Pow")
UNARY = ("Neg", "Abs", "Exp", "Log", "Sqrt", "Square", "Erf", "ReLU", "ReLUV3", "ReLU6",
         "HSwish", "Sigmoid", "Tanh", "GeLU", "FastGeLU")
POSITIVE = {"Log", "Sqrt"}
BROADCASTS = [((3, 4, 5), (3, 4, 5)), ((2, 3, 300), (300,)), ((4, 600), (4, 1)),
              ((2, 3, 20, 20), (1, 3, 1, 1)), ((500,), ()), ((2, 1, 30), (1, 40, 1)),
              ((0, 5), (5,))]


def _operand(op, shape, dtype):
    if op == "Pow":
        return np.abs(normal(shape, dtype)) + dtype(0.5)
    if op in ("RealDiv", "Div"):
        return normal(shape, dtype, shift=3.0)
    return normal(shape, dtype)


@pytest.mark.parametrize("op", BINARY)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shapes", BROADCASTS, ids=str)
def test_binary_elementwise(op, dtype, shapes):
    a, b = (_operand(op, s, dtype) for s in shapes)
    check(op, a, b)
    check(op, b, a)


@pytest.mark.parametrize("op", BINARY)
def test_binary_with_python_numbers_and_other_dtypes(op):
    x = _operand(op, (6, 7), np.float32)
    check(op, x, 2.5)
    check(op, x, 3)
    check(op, 2.0, x)
    check(op, x, _operand(op, (6, 7), np.float64))       # promoted: reference
    check(op, x.astype(np.float16), x.astype(np.float16))
    if op not in ("Pow", "RealDiv"):
        ints = rng.integers(1, 9, (6, 7)).astype(np.int32)
        check(op, ints, ints)


@pytest.mark.parametrize("op", UNARY)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(7,), (3, 1500), (), (0, 5)], ids=str)
def test_unary_elementwise(op, dtype, shape):
    x = normal(shape, dtype, scale=3.0)
    if op in POSITIVE:
        x = np.abs(x) + dtype(0.1)
    check(op, x)


@pytest.mark.parametrize("op", UNARY)
def test_unary_special_values_and_fallbacks(op):
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-8, -30.0, 30.0,
                        100.0, -100.0], np.float32)
    check(op, special)
    check(op, normal((4, 5), np.float16))
    if get_op(op).dtypes and "int32" in get_op(op).dtypes:
        check(op, rng.integers(-5, 5, (4, 5)).astype(np.int32))


# -- convolution and pooling ------------------------------------------------------------------
CONVOLUTIONS = [
    # (x shape, out channels, kernel, stride, dilation, group, pad_mode, pad)
    ((1, 3, 9, 11), 4, 3, 1, 1, 1, "PAD", (1, 1, 1, 1)),
    ((2, 4, 10, 7), 8, 3, 2, 1, 4, "SAME", (0, 0, 0, 0)),
    ((1, 6, 8, 8), 6, 3, 2, 1, 6, "PAD", (1, 1, 1, 1)),
    ((2, 6, 9, 9), 12, 3, 1, 2, 6, "PAD", (2, 1, 0, 2)),
    ((1, 8, 7, 7), 16, 1, 1, 1, 1, "VALID", (0, 0, 0, 0)),
    ((2, 8, 7, 7), 16, 1, 2, 1, 2, "VALID", (0, 0, 0, 0)),
    ((1, 3, 5, 5), 2, 5, 1, 1, 1, "SAME", (0, 0, 0, 0)),
    ((1, 2, 3, 3), 2, 5, 1, 1, 1, "PAD", (3, 3, 3, 3)),
    ((2, 4, 40, 40), 8, 3, 1, 1, 4, "PAD", (1, 1, 1, 1)),
    ((1, 4, 41, 40), 4, 3, 2, 1, 4, "PAD", (1, 0, 1, 0)),
    ((1, 32, 9, 9), 32, 3, 1, 1, 32, "SAME", (0, 0, 0, 0)),
    ((1, 40, 7, 7), 40, 3, 1, 1, 40, "PAD", (1, 1, 1, 1)),    # channel blocks of 32 + 8
    ((2, 3, 30, 33), 5, 3, 1, 1, 1, "PAD", (1, 1, 1, 1)),
    ((1, 3, 30, 33), 5, 3, 1, 1, 1, "PAD", (0, 2, 1, 0)),
    ((1, 3, 30, 33), 5, 5, 1, 1, 1, "SAME", (0, 0, 0, 0)),
    ((2, 4, 31, 30), 6, 3, 1, 1, 2, "VALID", (0, 0, 0, 0)),
    ((1, 3, 12, 12), 4, 7, 2, 1, 1, "PAD", (3, 3, 3, 3)),
]


@pytest.mark.parametrize("case", CONVOLUTIONS, ids=str)
@pytest.mark.parametrize("dtype", FLOATS)
def test_conv2d(case, dtype):
    shape, c_out, k, stride, dilation, group, pad_mode, pad = case
    x = normal(shape, dtype)
    w = normal((c_out, shape[1] // group, k, k), dtype)
    check("Conv2D", x, w, None, None, 1, pad_mode, pad, (stride, stride),
          (dilation, dilation), group)


def test_conv2d_fallbacks_and_errors():
    x, w = normal((1, 4, 8, 8)), normal((4, 4, 3, 3))
    check("Conv2D", x.astype(np.float16), w.astype(np.float16))
    check("Conv2D", x.transpose(0, 2, 3, 1).copy(), w.transpose(0, 2, 3, 1).copy(),
          None, None, 1, "VALID", (0, 0, 0, 0), (1, 1), (1, 1), 1, "NHWC")
    check("Conv2D", x, w.astype(np.float64))
    with pytest.raises(ValueError, match="do not fit group"):
        get_op("Conv2D").kernel("numba")(x, normal((4, 3, 3, 3)))


POOLS = [((1, 3, 9, 9), (3, 3), (2, 2), "SAME"), ((2, 4, 8, 7), (2, 2), (2, 2), "VALID"),
         ((1, 2, 11, 10), (3, 2), (1, 2), "SAME"), ((1, 2, 5, 5), (3, 3), (2, 2), "SAME"),
         ((1, 1, 7, 7), (7, 7), (1, 1), "VALID"),
         ((1, 2, 40, 150), (3, 3), (2, 2), "SAME"),         # bands of
         ((1, 3, 31, 260), (2, 3), (3, 1), "VALID")]        # rows


@pytest.mark.parametrize("op", ("MaxPool", "AvgPool"))
@pytest.mark.parametrize("case", POOLS, ids=str)
@pytest.mark.parametrize("dtype", FLOATS)
def test_pools(op, case, dtype):
    shape, kernel_size, strides, pad_mode = case
    x = normal(shape, dtype)
    x.flat[3] = np.nan
    check(op, x, kernel_size, strides, pad_mode)


@pytest.mark.parametrize("op", ("MaxPool", "AvgPool"))
def test_pool_fallbacks(op):
    x = normal((1, 6, 6, 2))
    check(op, x, (2, 2), (2, 2), "VALID", "NHWC")
    check(op, x.astype(np.float16), (2, 2), (2, 2), "SAME")


# -- normalisation and softmax ----------------------------------------------------------------
@pytest.mark.parametrize("op", ("Softmax", "LogSoftmax"))
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("case", [((4, 7, 130), (-1,)), ((3, 5), (1,)), ((2, 3, 4), (1,)),
                                  ((5,), (-1,)), ((2, 0), (-1,))], ids=str)
def test_softmax(op, dtype, case):
    shape, axis = case
    x = normal(shape, dtype, scale=5.0)
    check(op, x, axis)


def test_softmax_special_values():
    """inf and NaN as the reference: a NaN anywhere in a row (first or not
    the first, where the row's maximum passes it by) makes the row NaN."""
    x = np.array([[1.0, np.inf, 2.0], [np.nan, 1.0, 0.0], [1.0, np.nan, 0.0],
                  [-np.inf, 0.0, 1.0]], np.float32)
    check("Softmax", x, (-1,))
    check("LogSoftmax", x, (-1,))


@numba.njit
def _greatest(x, start, count):
    return vectors.greatest(x, start, count)


@pytest.mark.parametrize("dtype", FLOATS)
def test_the_greatest_of_a_run_of_elements(dtype):
    """vectors.greatest (Softmax's row maximum): the largest of ``count``
    elements from ``start`` on, wherever it is (in a vector's lane or in
    the tail after the whole vectors); a NaN is passed over unless it
    comes first. (Softmax itself would hide a wrong maximum.)"""
    x = normal(200, dtype)
    for start, count in [(0, 1), (3, 7), (5, 32), (1, 37), (17, 150)]:
        for place in (0, count // 2, count - 1):
            run = x.copy()
            run[start + place] = 100
            assert _greatest(run, start, count) == 100
        assert _greatest(x, start, count) == x[start:start + count].max()
    with_nan = x.copy()
    with_nan[[20, 40]] = np.nan
    assert _greatest(with_nan, 10, 100) == np.nanmax(with_nan[10:110])
    assert np.isnan(_greatest(with_nan, 20, 100))


@pytest.mark.parametrize("dtype", FLOATS)
def test_softmax_flushes_what_would_be_subnormal(dtype):
    """Masked attention: entries far below the row's top give exact zeros
    (not subnormals, whose arithmetic is slow), within the op tolerance of
    the reference; the rest of the row is unchanged by them."""
    lowest = np.log(np.finfo(dtype).tiny)
    x = np.array([[0.0, lowest - 3, -1e4, lowest + 3, 1.0]], dtype)
    got = get_op("Softmax").kernel("numba")(x, (-1,))
    assert got[0, 1] == got[0, 2] == 0 and got[0, 3] > 0
    check("Softmax", x, (-1,))
    check("LogSoftmax", x, (-1,))


@pytest.mark.parametrize("dtype", FLOATS + (np.float16,))
@pytest.mark.parametrize("case", [((2, 5, 768), -1, -1), ((3, 4, 6), 1, 1), ((3, 4, 6), 2, 2),
                                  ((3, 4, 6), 1, 2)], ids=str)
def test_layer_norm(dtype, case):
    shape, norm_axis, params_axis = case
    x = normal(shape, dtype, scale=3.0, shift=1.0)
    gamma, beta = normal(shape[params_axis:], dtype), normal(shape[params_axis:], dtype)
    check("LayerNorm", x, gamma, beta, norm_axis, params_axis, 1e-7)


# -- reductions -------------------------------------------------------------------------------
REDUCTIONS = ("ReduceMean", "ReduceSum", "ReduceMax", "MeanExt", "SumExt")


@pytest.mark.parametrize("op", REDUCTIONS)
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("axes", [(2, 3), (-1,), (3, 2), (1,), (), (0, 1, 2, 3)], ids=str)
@pytest.mark.parametrize("keep", (False, True))
def test_reductions(op, dtype, axes, keep):
    x = normal((2, 3, 7, 9), dtype, scale=2.0)
    x[0, 1, 2, 3] = np.nan
    check(op, x, axes, keep)


@pytest.mark.parametrize("op", REDUCTIONS)
def test_reduction_fallbacks(op):
    check(op, rng.integers(-9, 9, (3, 4)).astype(np.int32), (1,), False)
    check(op, normal((3, 4), np.float16), (1,), False)
    check(op, normal((3, 0)), (1,), False)
    check(op, normal(()), (), False)
    with_dtype = (normal((3, 4)), (1,), False, np.dtype(np.float64))
    if op.endswith("Ext"):
        check(op, *with_dtype)
    if op == "ReduceSum":
        check(op, normal((3, 4)), (), False, True)


# -- matrix products --------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", FLOATS)
def test_matrix_products(dtype):
    a, b = normal((5, 7), dtype), normal((7, 3), dtype)
    for ta in (False, True):
        for tb in (False, True):
            check("MatMul", a.T.copy() if ta else a, b.T.copy() if tb else b, ta, tb)
    x, y = normal((2, 3, 5, 7), dtype), normal((2, 3, 7, 4), dtype)
    check("BatchMatMul", x, y)
    check("BatchMatMul", x, y.swapaxes(-1, -2).copy(), False, True)
    check("MatMulExt", x, normal((7, 4), dtype))
    check("MatMulExt", normal((7,), dtype), normal((7,), dtype))
    check("BatchMatMul", normal((2, 0, 5), dtype), normal((2, 5, 3), dtype))    # empty


@pytest.mark.parametrize("shape", [(512, 256, 256), (128, 512, 1030), (2, 1024, 1030),
                                   (0, 64, 1030), (3, 8, 0)], ids=str)
@pytest.mark.parametrize("act", ["none", "relu", "gelu", "gelu, no bias"])
@pytest.mark.parametrize("weight", ["plain", "packed"])
def test_parallel_matmul_splits_by_rows_weight_columns_or_depth(shape, act,
                                                               weight):
    """Big enough to be split (GEMM_WORK multiply-adds or STREAM_BYTES of
    weight per piece): by rows when the weight has fewer columns than x has
    rows, by ranges of the depth (partial products summed) when x has
    fewer rows than a tile (2 x 1024 by 1024 x 1030, three threads), else
    by column blocks, the last one partial; bias and activation (a light
    and a heavy one) applied to every piece. A packed weight
    (packed_matmul: our own product) is split by its columns."""
    m, k, n = shape
    x, w = normal((m, k)), normal((k, n)) * 0.05
    bias = None if "no bias" in act else normal((n,))
    code = {"none": _fast.ACT_NONE, "relu": _fast.ACT_RELU,
            "gelu": _fast.ACT_GELU}[act.split(",")[0]]
    expected = x.astype(np.float64) @ w + (0 if bias is None else bias)
    if act == "relu":
        expected = np.maximum(expected, 0)
    elif code == _fast.ACT_GELU:
        expected = 0.5 * expected * (1 + np.tanh(
            np.sqrt(2 / np.pi) * (expected + 0.044715 * expected ** 3)))
    got = gemm.parallel_matmul(x, w, bias, code) if weight == "plain" else \
        gemm.packed_matmul(x, packed.PackedRight(w), bias, code)
    assert got.dtype == np.float32 and got.shape == (m, n)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


def test_fused_matmul_of_a_vector():
    x, w, bias = normal((1024,)), normal((1024, 1030)), normal((1030,))
    got = gemm.fused_matmul(x, w, bias, _fast.ACT_NONE)
    assert got.shape == (1030,)
    np.testing.assert_allclose(got, x.astype(np.float64) @ w + bias, rtol=1e-4, atol=1e-4)


def test_matrix_product_fallbacks():
    ints = rng.integers(-3, 3, (4, 4)).astype(np.int32)
    check("MatMul", ints, ints)
    check("MatMul", normal((4, 4)), normal((4, 4), np.float64))
    check("BatchMatMul", normal((2, 4, 4), np.float16), normal((2, 4, 4), np.float16))
    check("MatMulExt", ints, ints)


# -- covered here -------------------------------------------------------------------------------
TESTED = set(BINARY + UNARY + REDUCTIONS) | {
    "Add", "Conv2D", "MaxPool", "AvgPool", "Softmax", "LogSoftmax", "LayerNorm", "MatMul",
    "BatchMatMul", "MatMulExt"}
