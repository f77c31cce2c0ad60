"""The cuda kernel of LSTM (refinfer/cuda/recurrent.py: the step loop on
the host, gemm.py's products and one fused gate kernel per step) equals
the reference on tiny shapes: one and two layers, both directions, with
and without bias, float32 (the op tolerance: the products sum in order
where BLAS blocks), float64 and float16 (computed in float32); weights of
the wrong size decline."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import recurrent

from cuda_check import check, run, values


def _lstm_args(dtype, steps=3, batch=2, size_in=3, hidden=2, layers=1,
               bidirectional=False, has_bias=True):
    directions = 2 if bidirectional else 1
    count = layers * directions
    weights = sum(4 * hidden * (size_in if k < directions else hidden * directions)
                  for k in range(count)) + count * 4 * hidden * hidden \
        + (count * 4 * hidden if has_bias else 0)
    return (values((steps, batch, size_in), dtype), values((count, batch, hidden), dtype),
            values((count, batch, hidden), dtype),
            (values((weights, 1, 1), dtype) * 0.5).astype(dtype),
            size_in, hidden, layers, has_bias, bidirectional)


def test_every_kernel_is_tested():
    assert set(recurrent.KERNELS) == {"LSTM"}


@pytest.mark.parametrize("dtype, layers, bidirectional, has_bias", [
    (np.float32, 2, True, True), (np.float64, 1, False, True),
    (np.float32, 1, True, False), (np.float16, 1, False, True)],
    ids=["2-layers-both-directions", "float64", "no-bias", "float16"])
def test_lstm(dtype, layers, bidirectional, has_bias):
    """(the simulator takes ~0.1 s a step and direction: 2 steps)"""
    check("LSTM", *_lstm_args(dtype, steps=2, layers=layers,
                              bidirectional=bidirectional, has_bias=has_bias))


def test_lstm_declines():
    x, hx, cx, w, *rest = _lstm_args(np.float32)
    assert run("LSTM", x, hx, cx, w[:-1].copy(), *rest) is None     # one value short
    with pytest.raises(ValueError, match="LSTM: weight has"):
        registry.get_op("LSTM").reference(x, hx, cx, w[:-1].copy(), *rest)
