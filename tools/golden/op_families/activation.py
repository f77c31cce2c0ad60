"""Activations: every dtype MindSpore's CPU kernels take, their attribute variants, and
the ``mint.nn.functional`` spellings (NumPy goldens where MindSpore has no CPU kernel)."""
import math

import numpy as np
from mindspore import nn

from op_cases import OpCase, fixed, per_dtype, t

F16_32 = ["float32", "float16"]
F16_32_64 = ["float32", "float16", "float64"]
S = (2, 3)
EDGES = [-30.0, -6.0, -3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 3.0, 6.0, 30.0]
SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805


def act(name, op, expr, dtypes=F16_32, low=-6.0, high=6.0, shape=S):
    return per_dtype(name, op, expr, [shape], dtypes, low=low, high=high)


def erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def softplus(x):
    return np.logaddexp(0, x)


CASES = [
    *act("relu", "ReLU", "ops.relu(x)", F16_32_64 + ["int32"]),
    *act("relu6", "ReLU6", "ops.relu6(x)", F16_32, low=-3.0, high=9.0),
    *act("hswish", "HSwish", "ops.hardswish(x)", F16_32_64 + ["int32"]),
    *act("hsigmoid", "HSigmoid", "ops.hardsigmoid(x)", F16_32_64 + ["int32"]),
    OpCase("hsigmoid_edges", "HSigmoid", "ops.hardsigmoid(x)", [fixed(EDGES)]),
    *act("gelu_tanh", "GeLU", 'ops.gelu(x, approximate="tanh")', F16_32_64),
    OpCase("gelu_erf", ("Erf", "Div", "Mul"), "ops.gelu(x)", [t(S, low=-4.0, high=4.0)],
           "the exact GeLU exports Div, Erf, Add, Mul"),
    *act("fast_gelu", "FastGeLU", "ops.fast_gelu(x)", F16_32),
    OpCase("fast_gelu_edges", "FastGeLU", "ops.fast_gelu(x)", [fixed(EDGES)]),
    *act("silu", "SiLU", "ops.silu(x)", F16_32_64),
    *act("mish", "Mish", "ops.mish(x)", F16_32_64),
    *act("softplus", "Softplus", "P.Softplus()(x)", F16_32_64),
    OpCase("softplus_edges", "Softplus", "P.Softplus()(x)", [fixed(EDGES)]),
    OpCase("softplus_beta", ("Softplus", "Select"), "ops.softplus(x, 2, 10)",
           [t(S, low=-9.0, high=9.0)],
           "ops.softplus exports Select(beta x > threshold, x, Softplus(beta x) / beta)"),
    *act("softsign", "Softsign", "ops.softsign(x)", F16_32_64),
    *act("selu", "SeLU", "ops.selu(x)", F16_32_64 + ["int32"], low=-5, high=5),
    *act("elu", "Elu", "ops.elu(x)", F16_32_64),
    *act("celu", "CeLU", "ops.celu(x, 1.5)", F16_32_64),
    *act("soft_shrink", "SoftShrink", "ops.softshrink(x, 0.7)", F16_32, low=-2.0, high=2.0),
    *act("hshrink", "HShrink", "ops.hardshrink(x, 0.7)", F16_32, low=-2.0, high=2.0),
    OpCase("prelu_nchw", "PReLU", "ops.prelu(x, y)", [t((2, 3, 2, 2)), t((3,), low=0.0, high=0.5)]),
    OpCase("prelu_shared", "PReLU", "ops.prelu(x, y)", [t((2, 4)), t((1,), low=0.0, high=0.5)]),
    OpCase("prelu_1d", "PReLU", "ops.prelu(x, y)", [t((5,)), t((1,), low=0.0, high=0.5)]),
    OpCase("prelu_cell", "PReLU", None, [t((2, 3, 4))], "nn.PReLU(3): a weight parameter",
           cell=lambda: nn.PReLU(3)),
    OpCase("gelu_cell_exact", ("Erf", "Div", "Mul"), None, [t(S)], "nn.GELU(approximate=False)",
           cell=lambda: nn.GELU(approximate=False)),
    OpCase("leaky_relu", ("Mul", "Maximum"), "ops.leaky_relu(x, 0.2)", [t(S)],
           "ops.leaky_relu exports Maximum(slope * x, x)"),
    # mint spellings without a MindSpore CPU kernel: NumPy goldens.
    OpCase("gelu_mint", "GeluExt", "mint.nn.functional.gelu(x)", [t(S)],
           reference=lambda x: (0.5 * x * (1 + erf(x / np.sqrt(2.0)))).astype(x.dtype)),
    OpCase("gelu_mint_tanh", "GeluExt", 'mint.nn.functional.gelu(x, approximate="tanh")', [t(S)],
           reference=lambda x: (0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (
               x + 0.044715 * x.astype(np.float64) ** 3)))).astype(x.dtype)),
    OpCase("leaky_relu_mint", "LeakyReLUExt", "mint.nn.functional.leaky_relu(x, 0.1)", [t(S)],
           reference=lambda x: np.where(x > 0, x, np.float32(0.1) * x)),
    OpCase("elu_mint", "EluExt", "mint.nn.functional.elu(x, 0.5)", [t(S)],
           reference=lambda x: np.where(x > 0, x, 0.5 * np.expm1(x)).astype(x.dtype)),
    OpCase("selu_mint", "SeLUExt", "mint.nn.functional.selu(x)", [t(S)],
           reference=lambda x: (SELU_SCALE * np.where(
               x > 0, x, SELU_ALPHA * np.expm1(x.astype(np.float64)))).astype(x.dtype)),
    OpCase("mish_mint", "MishExt", "mint.nn.functional.mish(x)", [t(S)],
           reference=lambda x: (x * np.tanh(softplus(x.astype(np.float64)))).astype(x.dtype)),
    OpCase("softplus_mint", "SoftplusExt", "mint.nn.functional.softplus(x, 2, 5)",
           [t(S, low=-5.0, high=5.0)],
           reference=lambda x: np.where(2 * x > 5, x, softplus(2.0 * x) / 2).astype(x.dtype)),
    OpCase("hardtanh_mint", "Hardtanh", "mint.nn.functional.hardtanh(x, -0.5, 2.0)", [t(S)],
           reference=lambda x: np.clip(x, np.float32(-0.5), np.float32(2.0))),
    OpCase("relu6_mint", "Hardtanh", "mint.nn.functional.relu6(x)", [t(S, low=-3.0, high=9.0)],
           reference=lambda x: np.clip(x, np.float32(0), np.float32(6))),
    OpCase("logsigmoid_mint", "LogSigmoid", "mint.nn.functional.logsigmoid(x)", [t(S)],
           reference=lambda x: -softplus(-x).astype(x.dtype)),
]
