"""The activations added for issue 3 against float64 math-module formulas,
over every float dtype and shapes with rank 0 and 0-size dims; argument
variants (alpha, lambd, beta/threshold, negative_slope, approximate codes),
PReLU's channel layouts and MindSpore 2.7.1's integer results."""
import math

import numpy as np
import pytest

from math_helpers import FLOATS, UNARY_SHAPES, apply, sample
from tolerances import tolerance

SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805


def sigmoid(v):
    return 1 / (1 + math.exp(-v)) if v >= 0 else math.exp(v) / (1 + math.exp(v))


def softplus(v):
    return max(v, 0.0) + math.log1p(math.exp(-abs(v)))


def gelu_tanh(v):
    return 0.5 * v * (1 + math.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3)))


def gelu_erf(v):
    return v * 0.5 * (1 + math.erf(v / math.sqrt(2)))


def selu(v):
    return SELU_SCALE * (v if v > 0 else SELU_ALPHA * math.expm1(v))


# op -> (float64 formula, extra arguments after the input)
ACTIVATIONS = {
    "HSigmoid": (lambda v: min(max(v + 3, 0), 6) / 6, ()),
    "GeLU": (gelu_tanh, ()),
    "FastGeLU": (lambda v: v * sigmoid(1.702 * v), ()),
    "SiLU": (lambda v: v * sigmoid(v), ()),
    "Mish": (lambda v: v * math.tanh(softplus(v)), ()),
    "MishExt": (lambda v: v * math.tanh(softplus(v)), ()),
    "Softplus": (softplus, ()),
    "Softsign": (lambda v: v / (1 + abs(v)), ()),
    "SeLU": (selu, ()),
    "SeLUExt": (selu, ()),
    "Elu": (lambda v: v if v > 0 else math.expm1(v), ()),
    "EluExt": (lambda v: v if v > 0 else 0.3 * math.expm1(v), (0.3,)),
    "CeLU": (lambda v: v if v > 0 else 1.5 * math.expm1(v / 1.5), (1.5,)),
    "SoftShrink": (lambda v: v - 0.7 if v > 0.7 else (v + 0.7 if v < -0.7 else 0.0), (0.7,)),
    "HShrink": (lambda v: v if abs(v) > 0.7 else 0.0, (0.7,)),
    "LeakyReLUExt": (lambda v: v if v > 0 else 0.2 * v, (0.2,)),
    "GeluExt": (gelu_erf, (0,)),
    "SoftplusExt": (lambda v: v if 2 * v > 5 else softplus(2 * v) / 2, (2, 5)),
    "Hardtanh": (lambda v: min(max(v, -0.5), 2.0), (-0.5, 2.0)),
}


@pytest.mark.parametrize("op", sorted(ACTIVATIONS))
@pytest.mark.parametrize("dtype", FLOATS)
def test_activation(call, close, rng, op, dtype):
    f, extra = ACTIVATIONS[op]
    for shape in UNARY_SHAPES:
        x = sample(rng, shape, dtype, -8.0, 8.0)
        close(call(op, x, *extra), apply(f, x), dtype, **tolerance(op, dtype))


EDGES = np.array([-1e4, -88.0, -20.0, -3.0, -0.0, 0.0, 3.0, 20.0, 88.0, 1e4])


@pytest.mark.parametrize("op", sorted(ACTIVATIONS))
def test_activation_saturates(call, close, op):
    f, extra = ACTIVATIONS[op]
    x = EDGES.astype(np.float32)
    close(call(op, x, *extra), apply(f, x), np.float32, atol=1e-30)


@pytest.mark.parametrize("approximate", [0, "none", "NONE", 1, "tanh"])
def test_gelu_ext_approximate_spellings(call, close, rng, approximate):
    x = sample(rng, (3, 4), np.float64)
    f = gelu_tanh if approximate in (1, "tanh") else gelu_erf
    close(call("GeluExt", x, approximate), apply(f, x), np.float64)
    with pytest.raises(ValueError):
        call("GeluExt", x, 2)


def test_integer_activations_like_mindspore(call, close):
    # MindSpore 2.7.1 CPU, int32 [-5, -3, -1, 0, 1, 2, 3, 4, 7, 100]:
    x = np.array([-5, -3, -1, 0, 1, 2, 3, 4, 7, 100], np.int32)
    close(call("HSigmoid", x), np.array([0, 0, 0, 0, 0, 0, 1, 1, 1, 1], np.int32))
    close(call("SeLU", x), np.array([0, 0, 0, 0, 1, 2, 3, 4, 7, 105], np.int32))
    close(call("SeLU", x.astype(np.int8)), np.array([0, 0, 0, 0, 1, 2, 3, 4, 7, 105], np.int8))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape,weight_shape", [
    ((2, 3, 4, 5), (3,)), ((2, 3), (3,)), ((2, 3, 4), (1,)), ((6,), (1,)), ((), (1,)),
    ((0, 3, 2), (3,))])
def test_prelu_channel_layouts(call, close, rng, dtype, shape, weight_shape):
    x = sample(rng, shape, dtype)
    w = sample(rng, weight_shape, dtype, 0.0, 0.5)
    channel_w = w.reshape((1, -1) + (1,) * (len(shape) - 2)) \
        if len(shape) >= 2 and w.size > 1 else w.reshape(())
    close(call("PReLU", x, w), apply(lambda v, a: v if v > 0 else a * v, x, channel_w), dtype)


def test_log_sigmoid_returns_value_and_buffer(call, close, rng):
    x = sample(rng, (2, 3), np.float32, -30.0, 30.0)
    y, buffer = call("LogSigmoid", x)
    close(y, apply(lambda v: -softplus(-v), x), np.float32)
    close(buffer, apply(lambda v: math.exp(-abs(v)), x), np.float32)


def test_elu_celu_alpha_and_shrink_lambda_come_from_tensors(call, close):
    # PRIMITIVE_FUNCTION constants may arrive as 0-d tensors
    x = np.array([-1.0, 2.0], np.float32)
    close(call("Elu", x, np.array(1.0, np.float32)), [math.expm1(-1), 2], np.float32)
    close(call("SoftShrink", x, np.array(1.5)), [0, 0.5], np.float32)
