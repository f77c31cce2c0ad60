"""The cuda kernels composed of other ops' kernels (refinfer/cuda/
composite.py) equal their references within the op tolerances (the sums
accumulate in another order than NumPy's): float32 and float64, the
integer dtypes EqualCount and TraceV2 take, every KLDivLoss reduction,
axes and broadcasts; float16 computed in float32 (within 1 float16 ulp);
integers a step would compute otherwise than the reference, and what the
references refuse, decline."""
import numpy as np
import pytest
from cuda_check import check, run
from test_cuda_half import assert_half_result

from refinfer import registry
from refinfer.cuda import load_kernels

load_kernels()          # (the composed ops run the other families' kernels)
rng = np.random.default_rng(1399)
DTYPES = [np.float32, np.float64]


def _normal(shape, dtype):
    return np.asarray(rng.standard_normal(shape), dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_approximate_equal(dtype):
    x = _normal((3, 4), dtype)
    y = x + np.asarray([0.0, 0.3, -0.6, 2.0], dtype)
    y[0, 0] = np.nan
    check("ApproximateEqual", x, y, 0.5)
    check("ApproximateEqual", x, y[1], 1e-05)            # a broadcast row


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ["GLU", "Swiglu"])
def test_gated_units(name, dtype):
    x = _normal((2, 3, 4), dtype)
    for axis in (-1, 0, 2):
        check(name, x, axis)
    assert run(name, x, 1) is None                       # an odd length
    assert run(name, x, 3) is None                       # no such axis


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_sums_of_squares(dtype):
    x, y = _normal((3, 5), dtype), _normal((3, 5), dtype)
    check("L2Loss", x)
    check("L2Loss", np.asarray(1.5, dtype))
    if dtype == np.float32:                              # (its dtypes: 16 and 32)
        check("SquareSumAll", x, y)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int8, np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_equal_count(dtype):
    x = rng.integers(0, 3, (4, 5)).astype(dtype)
    y = rng.integers(0, 3, (4, 5)).astype(dtype)
    check("EqualCount", x, y)
    assert run("EqualCount", x, y[:2]) is None           # shapes differ
    assert run("EqualCount", np.zeros(200, np.int8), np.zeros(200, np.int8)) is None


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8],
                         ids=lambda d: np.dtype(d).name)
def test_trace_v2(dtype):
    x = np.asarray(rng.integers(-4, 9, (3, 4, 2)), dtype)
    check("TraceV2", x)
    check("TraceV2", x, 1, 0, 1, None)
    check("TraceV2", x, -1, 2, 1, np.float64)
    check("TraceV2", x, 7, 0, 1, None)                   # an empty diagonal
    assert run("TraceV2", x, 0, 1, 1, None) is None      # one axis twice


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("reduction", ["none", "mean", "sum", "batchmean"])
def test_kl_div_loss(reduction, dtype):
    logits = _normal((3, 4), dtype)
    labels = np.asarray(np.abs(rng.standard_normal((3, 4))), dtype)
    labels[0, :2] = 0.0, -0.5                            # no term where labels <= 0
    check("KLDivLoss", logits, labels, reduction)
    assert run("KLDivLoss", logits, labels[:2], reduction) is None
    other = np.float64 if dtype == np.float32 else np.float32
    assert run("KLDivLoss", logits, labels.astype(other), reduction) is None


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_softmax_cross_entropy_with_logits(dtype):
    logits = _normal((3, 5), dtype) * 3
    labels = np.asarray(rng.dirichlet(np.ones(5), 3), dtype)
    check("SoftmaxCrossEntropyWithLogits", logits, labels)
    assert run("SoftmaxCrossEntropyWithLogits", logits[0], labels[0]) is None


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_clip_by_norm(dtype):
    x = _normal((3, 4), dtype) * 2
    check("ClipByNorm", x, 1.0, None)                    # every axis
    check("ClipByNorm", x, 3.0, (1,))                    # some rows clipped
    check("ClipByNorm", x, np.asarray([2.0, 4.0, 0.5, 8.0], np.float32), (0,))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_renorm(dtype):
    x = _normal((3, 4), dtype) * 2
    for p, dim, maxnorm in [(2.0, 0, 2.0), (1.0, -1, 1.5), (3.0, 1, 0.0)]:
        check("Renorm", x, p, dim, maxnorm)
    check("Renorm", _normal(5, dtype), 2.0, 0, 0.5)      # no other axis
    assert run("Renorm", x, 0.0, 0, 1.0) is None         # p <= 0: the reference's


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_eps(dtype):
    check("Eps", _normal((2, 3), dtype))


def test_float16_in_float32():
    """float16 computed in float32 and rounded once, as the references:
    within 1 float16 ulp (the steps alone would round each result)."""
    x, y = _normal((2, 4), np.float16), _normal((2, 4), np.float16)
    for name, args in [("L2Loss", (x,)), ("GLU", (x, -1)), ("Swiglu", (x, -1)),
                       ("Renorm", (x, 2.0, 0, 1.0)), ("ClipByNorm", (x, 1.0, None)),
                       ("SquareSumAll", (x, y)), ("ApproximateEqual", (x, y, 1.0)),
                       ("KLDivLoss", (x, abs(y), "mean")),
                       ("SoftmaxCrossEntropyWithLogits", (x, y))]:
        expected = registry.get_op(name).reference(*args)
        got = run(name, *args)
        assert got is not None, name
        assert_half_result(name, got, expected)


def test_integer_steps_that_differ_decline():
    """ApproximateEqual and L2Loss of integers, SquareSumAll of bool
    (their steps would wrap or widen otherwise than the references),
    and GLU of bool (Sigmoid refuses the halves the reference casts)."""
    ints = np.array([[100, -100, 3, 4]], np.int8)
    for name, args in [("ApproximateEqual", (ints, -ints, 1.0)), ("L2Loss", (ints,)),
                       ("SquareSumAll", (ints > 0, ints > 0)), ("GLU", (ints > 0, -1))]:
        registry.get_op(name).reference(*args)      # (which takes them)
        assert run(name, *args) is None, name
    check("SquareSumAll", ints, ints)


