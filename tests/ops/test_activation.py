"""Activations against float64 math-module formulas."""
import math

import numpy as np
import pytest

FLOATS = [np.float16, np.float32, np.float64]
SHAPES = [(), (0,), (7,), (2, 3, 4)]


def elementwise(f, x):
    """Apply a scalar float64 function elementwise."""
    x = np.asarray(x, np.float64)
    return np.array([f(v) for v in x.ravel()]).reshape(x.shape)


def sigmoid(v):
    if v >= 0:
        return 1 / (1 + math.exp(-v))
    return math.exp(v) / (1 + math.exp(v))


def hswish(v):
    return v * min(max(v + 3, 0), 6) / 6


UNARY = {
    "ReLU6": lambda v: min(max(v, 0.0), 6.0),
    "HSwish": hswish,
    "Sigmoid": sigmoid,
    "Tanh": math.tanh,
}


@pytest.mark.parametrize("op", sorted(UNARY))
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", SHAPES)
def test_unary_activations(call, close, rng, op, dtype, shape):
    x = (rng.standard_normal(shape) * 5).astype(dtype)
    close(call(op, x), elementwise(UNARY[op], x), dtype)


@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_activations_at_edges(call, close, op):
    x = np.array([-1e4, -88.0, -6.0, -3.0, -0.0, 3.0, 6.0, 88.0, 1e4],
                 np.float32)
    close(call(op, x), elementwise(UNARY[op], x), np.float32, atol=1e-30)


@pytest.mark.parametrize("dtype", [np.bool_, np.int32])
def test_sigmoid_refuses_a_tensor_that_is_not_float(call, dtype):
    """Fuzz seed 88: a bool input reached NumPy's boolean negative."""
    with pytest.raises(TypeError, match="Sigmoid: input must be float16, "
                                        "float32, float64, got "
                                        f"{np.dtype(dtype).name}"):
        call("Sigmoid", np.ones(3, dtype))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
def test_hswish_integers_truncate(call, close, dtype):
    # MindSpore 2.7.1 CPU: int32 [-5..4] -> [0 0 0 0 0 0 1 4].
    x = np.array([-5, -4, -3, -2, -1, 1, 2, 4], dtype)
    close(call("HSwish", x), np.array([0, 0, 0, 0, 0, 0, 1, 4], dtype))


def test_relu6_integers_and_nan(call, close):
    close(call("ReLU6", np.array([-3, 2, 9], np.int32)),
          np.array([0, 2, 6], np.int32))
    # MindSpore 2.7.1 CPU: relu6([nan, inf, -inf]) = [0, 6, 0]
    special = np.array([np.nan, np.inf, -np.inf], np.float32)
    np.testing.assert_array_equal(call("ReLU6", special),
                                  np.array([0, 6, 0], np.float32))


def softmax_ref(x, axis):
    x = np.asarray(x, np.float64)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax_ref(x, axis):
    """log(softmax) via math.fsum of exp over each slice."""
    x = np.moveaxis(np.asarray(x, np.float64), axis, -1)
    out = np.empty_like(x)
    for idx in np.ndindex(*x.shape[:-1]):
        row = x[idx]
        m = row.max()
        out[idx] = row - m - math.log(math.fsum(math.exp(v - m) for v in row))
    return np.moveaxis(out, -1, axis)


@pytest.mark.parametrize("op,ref", [("Softmax", softmax_ref),
                                    ("LogSoftmax", log_softmax_ref)])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape,axis", [((5,), -1), ((2, 3, 4), -1),
                                        ((2, 3, 4), 1), ((2, 3, 4), (0,)),
                                        ((3, 0), 0), ((2, 1), (-1,))])
def test_softmax_family(call, close, rng, op, ref, dtype, shape, axis):
    x = (rng.standard_normal(shape) * 4).astype(dtype)
    ax = axis[0] if isinstance(axis, tuple) else axis
    close(call(op, x, axis), ref(x, ax), dtype)


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax"])
def test_softmax_default_axis_and_large_logits(call, close, op):
    x = np.array([[1000.0, 1001.0], [-1000.0, -1001.0]], np.float32)
    expected = softmax_ref(x, -1)
    if op == "LogSoftmax":
        expected = log_softmax_ref(x, -1)
    close(call(op, x), expected, np.float32)


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax"])
def test_softmax_rejects_several_axes_and_scalars(call, op):
    with pytest.raises(ValueError):
        call(op, np.zeros((2, 2), np.float32), (0, 1))
    with pytest.raises(ValueError):
        call(op, np.zeros((), np.float32))


def test_softmax_mindspore_values(call, close):
    # MindSpore 2.7.1 CPU: LogSoftmax(axis=0) of [[1, 2, 3], [1, 1, 1]].
    got = call("LogSoftmax", np.array([[1, 2, 3], [1, 1, 1]], np.float32), 0)
    close(got, [[-0.6931472, -0.31326166, -0.12692805],
                [-0.6931472, -1.3132616, -2.126928]], np.float32)
