"""The LSTM's layer loop and weight layout, shared by its reference and its
kernel (which differ only in how one direction runs)."""
from __future__ import annotations

import numpy as np

from .common import compute_dtype


def layers(x, hx, cx, w, input_size, hidden_size, num_layers, has_bias,
           bidirectional, proj_size, run):
    """The LSTM's layers and directions in the compute dtype; ``run(seq, h,
    c, w_ih, w_hh, b, reverse)`` runs one direction: (y in time order,
    h_T, c_T), without writing to h or c."""
    if proj_size:
        raise ValueError("LSTM: proj_size > 0 is not supported")
    if x.ndim != 3 or x.shape[2] != input_size:
        raise ValueError(f"LSTM: x must be (T, N, {input_size}), got "
                         f"{x.shape}")
    directions = 2 if bidirectional else 1
    states = (num_layers * directions, x.shape[1], hidden_size)
    for name, state in (("hx", hx), ("cx", cx)):
        if state.shape != states:
            raise ValueError(f"LSTM: {name} must be (num_layers * directions, "
                             f"batch, hidden_size) = {states}, got {state.shape}")
    work = compute_dtype(x.dtype)
    blocks = split_weights(w.reshape(-1).astype(work, copy=False),
                           input_size, hidden_size, num_layers, directions,
                           has_bias)
    h0 = hx.astype(work, copy=False)
    c0 = cx.astype(work, copy=False)
    layer_input = x.astype(work, copy=False)
    h_n, c_n = [], []
    for layer in range(num_layers):
        outputs = []
        for direction in range(directions):
            k = layer * directions + direction
            y, h, c = run(layer_input, h0[k], c0[k], *blocks[k],
                          bool(direction))
            outputs.append(y)
            h_n.append(h)
            c_n.append(c)
        layer_input = np.concatenate(outputs, axis=2)
    dtype = x.dtype
    workspace = np.zeros((1, 1), dtype=dtype)
    return (layer_input.astype(dtype), np.stack(h_n).astype(dtype),
            np.stack(c_n).astype(dtype), workspace, workspace.copy())


def split_weights(flat, input_size, hidden, num_layers, directions,
                  has_bias):
    """(W_ih, W_hh, b) per layer and direction from the flat weight."""
    gates = 4 * hidden
    shapes_ih = [(gates, input_size if layer == 0 else hidden * directions)
                 for layer in range(num_layers) for _ in range(directions)]
    count = len(shapes_ih)
    sizes = [r * c for r, c in shapes_ih] + [gates * hidden] * count
    sizes += [gates] * count if has_bias else []
    if sum(sizes) != flat.size:
        raise ValueError(f"LSTM: weight has {flat.size} values, expected "
                         f"{sum(sizes)}")
    parts = np.split(flat, np.cumsum(sizes)[:-1])
    w_ih = [p.reshape(s) for p, s in zip(parts[:count], shapes_ih)]
    w_hh = [p.reshape(gates, hidden) for p in parts[count:2 * count]]
    bias = parts[2 * count:] if has_bias else \
        [np.zeros(gates, flat.dtype)] * count
    return list(zip(w_ih, w_hh, bias))
