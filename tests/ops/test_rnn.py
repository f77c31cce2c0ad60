"""The fused LSTM primitive against a step-by-step float64 cell written from the
equations, with the flat weight assembled the way nn.LSTM's export does
(Reshape + Concat of W_ih, W_hh and b_ih + b_hh). Single-layer uni- and
bidirectional layouts were checked against MindSpore 2.7.1's CPU kernel
(multi-layer fused nodes fail there: nn.LSTM never exports them)."""
import numpy as np
import pytest

from tolerances import tolerance


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def lstm_cell_sequence(x, h, c, w_ih, w_hh, b):
    """Gates (input, forget, cell, output) per step, one sample at a time."""
    hidden = h.shape[-1]
    ys = []
    for t in range(x.shape[0]):
        h_next, c_next = np.empty_like(h), np.empty_like(c)
        for n in range(x.shape[1]):
            pre = w_ih @ x[t, n] + w_hh @ h[n] + b
            i, f = sigmoid(pre[:hidden]), sigmoid(pre[hidden:2 * hidden])
            g, o = np.tanh(pre[2 * hidden:3 * hidden]), sigmoid(pre[3 * hidden:])
            c_next[n] = f * c[n] + i * g
            h_next[n] = o * np.tanh(c_next[n])
        h, c = h_next, c_next
        ys.append(h)
    return np.stack(ys), h, c


def make_weights(rng, input_size, hidden, layers, directions, bias):
    blocks = []
    for layer in range(layers):
        for _ in range(directions):
            size_in = input_size if layer == 0 else hidden * directions
            blocks.append((rng.uniform(-0.5, 0.5, (4 * hidden, size_in)),
                           rng.uniform(-0.5, 0.5, (4 * hidden, hidden)),
                           rng.uniform(-0.5, 0.5, 4 * hidden) if bias
                           else np.zeros(4 * hidden)))
    flat = [w_ih.reshape(-1) for w_ih, _, _ in blocks] \
        + [w_hh.reshape(-1) for _, w_hh, _ in blocks] \
        + ([b for _, _, b in blocks] if bias else [])
    return blocks, np.concatenate(flat).reshape(-1, 1, 1)


def reference(x, h0, c0, blocks, layers, directions):
    layer_input, h_n, c_n = x, [], []
    for layer in range(layers):
        outs = []
        for d in range(directions):
            k = layer * directions + d
            seq = layer_input[::-1] if d else layer_input
            y, h, c = lstm_cell_sequence(seq, h0[k], c0[k], *blocks[k])
            outs.append(y[::-1] if d else y)
            h_n.append(h)
            c_n.append(c)
        layer_input = np.concatenate(outs, axis=2)
    return layer_input, np.stack(h_n), np.stack(c_n)


@pytest.mark.parametrize("layers,bidirectional,bias", [
    (1, False, True), (1, True, True), (1, False, False), (2, True, True),
    (3, False, False)])
def test_lstm_matches_step_by_step_cell(call, close, rng, layers, bidirectional,
                                        bias):
    steps, batch, input_size, hidden = 4, 3, 5, 6
    directions = 2 if bidirectional else 1
    x = rng.standard_normal((steps, batch, input_size))
    h0 = rng.standard_normal((layers * directions, batch, hidden))
    c0 = rng.standard_normal((layers * directions, batch, hidden))
    blocks, w = make_weights(rng, input_size, hidden, layers, directions, bias)
    got = call("LSTM", x, h0, c0, w, input_size=input_size, hidden_size=hidden,
               num_layers=layers, has_bias=bias, bidirectional=bidirectional,
               dropout=0.0)
    assert len(got) == 5
    for out, exp in zip(got[:3], reference(x, h0, c0, blocks, layers, directions)):
        close(out, exp)
    assert got[3].shape == got[4].shape == (1, 1)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_lstm_dtypes(call, close, rng, dtype):
    x = rng.standard_normal((3, 2, 4))
    h0, c0 = np.zeros((1, 2, 5)), np.zeros((1, 2, 5))
    blocks, w = make_weights(rng, 4, 5, 1, 1, True)
    expected = reference(x, h0, c0, blocks, 1, 1)[0]
    got = call("LSTM", x.astype(dtype), h0.astype(dtype), c0.astype(dtype),
               w.astype(dtype), input_size=4, hidden_size=5)[0]
    close(got, expected, dtype, **tolerance("LSTM", dtype))


def test_lstm_empty_batch_and_sequence(call, rng):
    _, w = make_weights(rng, 4, 5, 1, 1, True)
    y, h, c, _, _ = call("LSTM", np.zeros((3, 0, 4)), np.zeros((1, 0, 5)),
                         np.zeros((1, 0, 5)), w, input_size=4, hidden_size=5)
    assert y.shape == (3, 0, 5) and h.shape == c.shape == (1, 0, 5)
    h0 = rng.standard_normal((1, 2, 5))
    y, h, _, _, _ = call("LSTM", np.zeros((0, 2, 4)), h0, h0, w, input_size=4,
                         hidden_size=5)
    assert y.shape == (0, 2, 5)
    np.testing.assert_array_equal(h[0], h0[0])


@pytest.mark.parametrize("bad", [dict(hidden_size=4), dict(input_size=3),
                                 dict(proj_size=2)])
def test_lstm_rejects_inconsistent_attributes(call, rng, bad):
    _, w = make_weights(rng, 4, 5, 1, 1, True)
    attrs = {"input_size": 4, "hidden_size": 5, **bad}
    with pytest.raises(ValueError):
        call("LSTM", np.zeros((3, 2, 4)), np.zeros((1, 2, 5)),
             np.zeros((1, 2, 5)), w, **attrs)
