"""LSTM."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import gemm
from ._ref.common import FLOATS
from ._ref.lstm import layers


@register("LSTM", family="nn", dtypes=FLOATS,
          convert={"input_size": args.integer, "hidden_size": args.integer,
                   "num_layers": args.integer, "has_bias": args.boolean,
                   "bidirectional": args.boolean, "dropout": args.scalar,
                   "proj_size": args.scalar},
          kernels={"numba": gemm.lstm})
def lstm(x, hx, cx, w, input_size, hidden_size, num_layers=1, has_bias=True,
         bidirectional=False, dropout=0.0, proj_size=0):
    """Fused multi-layer LSTM over a sequence (what nn.LSTM exports on CPU).

    Per time step t, layer and direction, with gates in PyTorch's order
    (input, forget, cell, output):
        i, f, g, o = split(x_t @ W_ih.T + h @ W_hh.T + b, 4)
        c = sigmoid(f) * c + sigmoid(i) * tanh(g)
        h = sigmoid(o) * tanh(c)
    The reverse direction runs over the reversed sequence; its outputs are
    concatenated after the forward ones, and each layer feeds the next.

    Operands: x (T, N, input_size); hx, cx (num_layers * directions, N,
    hidden_size); w, all weights flattened into one (size, 1, 1) tensor:
    every layer and direction's W_ih (4H, in) first, then every W_hh
    (4H, H), then (has_bias) every b (4H) = b_ih + b_hh, each block in
    layer-major, forward-first order. nn.LSTM exports one single-layer,
    single-direction LSTM node per layer and direction (running the
    reverse one on ReverseV2'd inputs) and builds w with Reshape + Concat.
    Attributes (classic PRIMITIVE): input_size, hidden_size,
    num_layers=1, has_bias=True, bidirectional=False, dropout (between
    layers in training only; ignored), proj_size=0 (projections are not
    supported).

    Returns (y (T, N, directions * H), h_n, c_n, reserve, state); the last
    two are MindSpore's workspace outputs, zeros of shape (1, 1) here.
    dtypes: float16 (computed in float32), float32, float64.
    """
    return layers(x, hx, cx, w, input_size, hidden_size, num_layers,
                  has_bias, bidirectional, proj_size, _run_direction)


def _sigmoid(z):
    return 0.5 * (np.tanh(0.5 * z) + 1.0)  # overflow-free logistic


def _run_direction(seq, h, c, w_ih, w_hh, bias, reverse):
    """:func:`_run` forwards, or over the reversed sequence (the output
    put back in time order)."""
    if not reverse:
        return _run(seq, h, c, w_ih, w_hh, bias)
    y, h, c = _run(seq[::-1], h, c, w_ih, w_hh, bias)
    return y[::-1], h, c


def _run(seq, h, c, w_ih, w_hh, bias):
    """One layer, one direction over seq (T, N, in): (y, h_T, c_T)."""
    steps, batch, size_in = seq.shape
    flat = seq.reshape(steps * batch, size_in)  # all steps: one 2-D BLAS GEMM
    gates_x = (flat @ w_ih.T + bias).reshape(steps, batch, w_ih.shape[0])
    y = np.empty(seq.shape[:2] + (h.shape[-1],), dtype=seq.dtype)
    for t in range(seq.shape[0]):
        i, f, g, o = np.split(gates_x[t] + h @ w_hh.T, 4, axis=-1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        y[t] = h
    return y, h, c
