"""Kernel speed, Numba backend against the NumPy reference (pytest-benchmark).

Not part of the normal test run (timings are no test): run it explicitly,

    REFINFER_BENCH=1 .venv/bin/python -m pytest tests/bench --benchmark-group-by=param:case

Shapes are the hot layers of the benchmark models (tools/bench.py):
ResNet-50, MobileNetV2 and a BERT-base layer at batch 1, float32.
"""
import os

import numpy as np
import pytest

from refinfer.ops._kernels import program as _fast
from refinfer.ops._kernels.conv import fused_conv2d
from refinfer.registry import get_op

pytestmark = pytest.mark.skipif(not os.environ.get("REFINFER_BENCH"),
                                reason="speed benchmarks: set REFINFER_BENCH=1")
rng = np.random.default_rng(0)
BACKENDS = ("reference", "numba")


def normal(*shape):
    return rng.standard_normal(shape).astype(np.float32)


CONVOLUTIONS = {
    # name: (x shape, weight shape, stride, group)
    "resnet 3x3 64@56": ((1, 64, 56, 56), (64, 64, 3, 3), 1, 1),
    "resnet 1x1 64->256@56": ((1, 64, 56, 56), (256, 64, 1, 1), 1, 1),
    "resnet 3x3 512@7": ((1, 512, 7, 7), (512, 512, 3, 3), 1, 1),
    "resnet stem 7x7/2": ((1, 3, 224, 224), (64, 3, 7, 7), 2, 1),
    "mobilenet dw 144@56": ((1, 144, 56, 56), (144, 1, 3, 3), 1, 144),
    "mobilenet dw 96@112/2": ((1, 96, 112, 112), (96, 1, 3, 3), 2, 96),
    "mobilenet dw 960@7": ((1, 960, 7, 7), (960, 1, 3, 3), 1, 960),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CONVOLUTIONS)
def test_conv2d(benchmark, case, backend):
    x_shape, w_shape, stride, group = CONVOLUTIONS[case]
    x, w = normal(*x_shape), normal(*w_shape)
    pad = (w_shape[2] // 2,) * 4
    conv = get_op("Conv2D").kernel(backend)
    benchmark(conv, x, w, None, None, 1, "PAD", pad, (stride, stride), (1, 1), group)


@pytest.mark.parametrize("case", CONVOLUTIONS)
def test_fused_conv2d_bias_relu(benchmark, case):
    """What the plan runs: BatchNorm folded, bias and ReLU in the epilogue."""
    x_shape, w_shape, stride, group = CONVOLUTIONS[case]
    x, w, b = normal(*x_shape), normal(*w_shape), normal(w_shape[0])
    pad = (w_shape[2] // 2,) * 4
    benchmark(fused_conv2d, x, None, w, b, _fast.ACT_RELU, "PAD", pad, (stride, stride),
              (1, 1), group)


OPS = {
    "maxpool 3x3/2 64@112": ("MaxPool", lambda: (normal(1, 64, 112, 112), (3, 3), (2, 2),
                                                 "SAME")),
    "softmax 12x128x128": ("Softmax", lambda: (normal(1, 12, 128, 128), (-1,))),
    "layernorm 128x768": ("LayerNorm", lambda: (normal(1, 128, 768), normal(768),
                                                normal(768), -1, -1, 1e-7)),
    "gelu 128x3072": ("GeLU", lambda: (normal(1, 128, 3072),)),
    "relu6 96x112x112": ("ReLU6", lambda: (normal(1, 96, 112, 112),)),
    "add 128x768": ("Add", lambda: (normal(1, 128, 768), normal(1, 128, 768))),
    "matmul 128x768x3072": ("MatMul", lambda: (normal(128, 768), normal(3072, 768), False,
                                               True)),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", OPS)
def test_op(benchmark, case, backend):
    op, make_args = OPS[case]
    benchmark(get_op(op).kernel(backend), *make_args())
