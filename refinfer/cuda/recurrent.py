"""The ``cuda`` kernel of LSTM (declared in :data:`KERNELS`): the
recurrence stays a loop on the host, its arithmetic on the device.

Per layer and direction (the weight layout: ``ops/_ref/lstm.split_weights``
run on a byte probe of the flat weight, so its blocks are device views at
the reference's own offsets)::

    gates_x = x (T*N, in) @ W_ih.T + b          one product for every step
    per step t (reversed for the reverse direction):
        gates = gates_x[t] + h @ W_hh.T          gemm.product, then
        c = sigmoid(f) * c + sigmoid(i) * tanh(g)    one fused kernel,
        h = sigmoid(o) * tanh(c);  y[t] = h          a thread per (n, j)

h and c are updated in place in the h_n and c_n outputs (the step's
product has read h before the gate kernel writes it); each direction
writes its half of the layer's output, which the next layer reads.
float32 and float64, float16 cast to float32 first and the results
back (Cast's kernel), as the reference computes it; the logistic as the
reference's overflow-free 0.5 * (tanh(z / 2) + 1).
"""
from __future__ import annotations

import numpy as np

from refinfer import registry
from refinfer.ops._ref.lstm import split_weights

from . import device
from .device import cuda, dmath
from .fill import filled
from .gemm import product
from .index import cast, probe, view_geometry
from .layout import flat

DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


@device.device_function
def _sigmoid(z, half, one):
    """The logistic, overflow-free (the reference's form); half and one
    of z's type, so float32 stays float32 (a literal is float64)."""
    return half * (dmath.tanh(half * z) + one)


@device.jit
def lstm_gates(gates_x, gates_h, h, c, y, column, half, one):
    """One step: gates = gates_x + gates_h (N, 4H, PyTorch's order i, f,
    g, o); c and h (N, H) updated in place; y[n, column + j] = h[n, j]."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    hidden = h.shape[1]
    for k in range(start, h.size, stride):
        n, j = k // hidden, k % hidden
        i = gates_x[n, j] + gates_h[n, j]
        f = gates_x[n, hidden + j] + gates_h[n, hidden + j]
        g = gates_x[n, 2 * hidden + j] + gates_h[n, 2 * hidden + j]
        o = gates_x[n, 3 * hidden + j] + gates_h[n, 3 * hidden + j]
        cell = _sigmoid(f, half, one) * c[n, j] + _sigmoid(i, half, one) * dmath.tanh(g)
        c[n, j] = cell
        h[n, j] = _sigmoid(o, half, one) * dmath.tanh(cell)
        y[n, column + j] = h[n, j]


def _blocks(w, input_size, hidden_size, num_layers, directions, has_bias):
    """(W_ih, W_hh, b or None) per layer and direction as device views of
    w, at the offsets of the reference's split_weights; None where it
    refuses the weight's size."""
    base = probe((w.size,))
    try:
        views = split_weights(base, input_size, hidden_size, num_layers, directions,
                              has_bias)
    except ValueError:
        return None
    weights = flat(w)
    blocks = []
    for parts in views:
        block = []
        for part in parts:
            geometry = view_geometry(base, part)
            if geometry is None:
                block.append(None)      # (no bias: split_weights' zeros)
                continue
            shape, _, start = geometry
            block.append(weights[start:start + part.size].reshape(shape))
        blocks.append(tuple(block))
    return blocks


def _direction(layer_input, w_ih, w_hh, bias, h, c, y, column, reverse):
    """One layer, one direction: h and c (N, H) updated in place, y's
    columns from ``column`` written; False where a product declines."""
    steps, batch = layer_input.shape[0], layer_input.shape[1]
    gates_x = product(layer_input.reshape(steps * batch, layer_input.shape[2]), w_ih,
                      transpose_c=True, bias=bias)
    if gates_x is None:
        return False
    gates_x = gates_x.reshape(steps, batch, w_ih.shape[0])
    for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
        gates_h = product(h, w_hh, transpose_c=True)
        if gates_h is None:
            return False
        device.launch(lstm_gates, h.size, gates_x[t], gates_h, h, c, y[t], column,
                      h.dtype.type(0.5), h.dtype.type(1))
    return True


def lstm(x, hx, cx, w, input_size, hidden_size, num_layers=1, has_bias=True,
         bidirectional=False, dropout=0.0, proj_size=0):
    """LSTM's (y, h_n, c_n, reserve, state) on the device; None (the CPU
    kernel then runs, or raises the reference's error) for projections,
    operands of other dtypes or shapes that do not fit."""
    if x.dtype == np.float16 and all(a.dtype == x.dtype for a in (hx, cx, w)):
        result = lstm(*(cast(a, np.float32) for a in (x, hx, cx, w)), input_size,
                      hidden_size, num_layers, has_bias, bidirectional, dropout,
                      proj_size)
        return None if result is None else tuple(cast(a, x.dtype) for a in result)
    directions = 2 if bidirectional else 1
    states = (num_layers * directions, x.shape[1] if x.ndim == 3 else 0, hidden_size)
    if x.dtype not in DTYPES or proj_size or x.ndim != 3 or x.shape[2] != input_size \
            or any(a.dtype != x.dtype for a in (hx, cx, w)) \
            or tuple(hx.shape) != states or tuple(cx.shape) != states:
        return None
    blocks = _blocks(w, input_size, hidden_size, num_layers, directions, has_bias)
    if blocks is None:
        return None
    h_n, c_n = device.copy(hx), device.copy(cx)
    layer_input = x
    for layer in range(num_layers):
        y = device.empty((x.shape[0], x.shape[1], directions * hidden_size), x.dtype)
        for direction in range(directions):
            k = layer * directions + direction
            if not _direction(layer_input, *blocks[k], h_n[k], c_n[k], y,
                              direction * hidden_size, bool(direction)):
                return None
        layer_input = y
    workspace = (filled((1, 1), np.zeros((), x.dtype)),
                 filled((1, 1), np.zeros((), x.dtype)))
    return (layer_input, h_n, c_n, *workspace)


KERNELS = {"LSTM": lstm}
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [("lstm gates, float32", lstm_gates,
        "void(float32[:, ::1], float32[:, ::1], float32[:, ::1], float32[:, ::1],"
        " float32[:, ::1], int64, float32, float32)")]
