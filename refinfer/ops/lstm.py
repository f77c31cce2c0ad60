"""LSTM."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, compute_dtype


@register("LSTM", family="nn", dtypes=FLOATS,
          convert={"input_size": args.scalar, "hidden_size": args.scalar,
                   "num_layers": args.scalar, "has_bias": args.boolean,
                   "bidirectional": args.boolean, "dropout": args.scalar,
                   "proj_size": args.scalar})
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
    return _layers(x, hx, cx, w, input_size, hidden_size, num_layers,
                   has_bias, bidirectional, proj_size, _run_direction)


def _layers(x, hx, cx, w, input_size, hidden_size, num_layers, has_bias,
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
    work = compute_dtype(x.dtype)
    blocks = _split_weights(w.reshape(-1).astype(work, copy=False),
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


def _split_weights(flat, input_size, hidden, num_layers, directions,
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


# -- numba backend -------------------------------------------------------------
# The input projections of all time steps are one GEMM; each step is then
# one GEMM h @ W_hh.T (BLAS) and one compiled pass for the gates, the cell
# and the output. The reverse direction runs the steps backwards over the
# unreversed input and writes each output at its own time.
from refinfer.jit import kernel  # noqa: E402
from refinfer.registry import register_kernel  # noqa: E402
from refinfer.threads import GEMM_WORK, min_items, parallel_for  # noqa: E402

from . import mat_mul  # noqa: E402


@kernel
def lstm_cell(gates_x, gates_h, c, h):
    """One step for every batch row: (i, f, g, o) = gates_x + gates_h
    (N, 4H), c = sigmoid(f) * c + sigmoid(i) * tanh(g), h = sigmoid(o) *
    tanh(c); c updated in place, the new h written to ``h``.

    sigmoid(z) = 1 / (1 + exp(-z)) and tanh(z) = 1 - 2 / (exp(2z) + 1),
    the reference's functions rearranged: Numba's tanh is a scalar libm
    call (float32: 15 times slower than NumPy's vectorised one on this
    project's machine), its exp is fast. Both forms saturate without NaN;
    near 0 they are off by an ulp of 1 (absolute), within the tolerances.
    """
    hidden = c.shape[1]
    one, two = c.dtype.type(1), c.dtype.type(2)
    for n in range(c.shape[0]):
        for j in range(hidden):
            i = gates_x[n, j] + gates_h[n, j]
            f = gates_x[n, hidden + j] + gates_h[n, hidden + j]
            g = gates_x[n, 2 * hidden + j] + gates_h[n, 2 * hidden + j]
            o = gates_x[n, 3 * hidden + j] + gates_h[n, 3 * hidden + j]
            cell = c[n, j] / (one + np.exp(-f)) \
                + (one - two / (np.exp(two * g) + one)) / (one + np.exp(-i))
            c[n, j] = cell
            h[n, j] = (one - two / (np.exp(two * cell) + one)) / (one + np.exp(-o))


def _run_fast(seq, h, c, w_ih, w_hh, bias, reverse):
    """One layer, one direction over seq (T, N, in): (y, h_T, c_T). The
    state h of each step is the step's output row y[t]."""
    steps, batch = seq.shape[:2]
    gates_x = mat_mul.parallel_matmul(seq.reshape(steps * batch, -1), w_ih.T, bias)
    gates_x = gates_x.reshape(steps, batch, -1)
    c = c.copy()
    gates_h = np.empty_like(gates_x[0])
    y = np.empty(seq.shape[:2] + h.shape[-1:], seq.dtype)
    w_t = w_hh.T
    for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
        def rows(lo, hi, now=gates_x[t], h=h, out=y[t]):
            np.matmul(h[lo:hi], w_t, out=gates_h[lo:hi])
            lstm_cell(now[lo:hi], gates_h[lo:hi], c[lo:hi], out[lo:hi])
        parallel_for(batch, rows, grain=min_items(w_hh.size, GEMM_WORK))
        h = y[t]
    return y, h, c


@register_kernel("LSTM", "numba")
def lstm_numba(x, hx, cx, w, input_size, hidden_size, num_layers=1,
               has_bias=True, bidirectional=False, dropout=0.0, proj_size=0):
    """LSTM with BLAS GEMMs and one compiled gate pass per step, in the
    reference's compute dtype (float16 runs in float32); empty inputs
    through the reference."""
    if x.size == 0 or hx.size == 0:
        return lstm(x, hx, cx, w, input_size, hidden_size, num_layers,
                    has_bias, bidirectional, dropout, proj_size)
    return _layers(x, hx, cx, w, input_size, hidden_size, num_layers,
                   has_bias, bidirectional, proj_size, _run_fast)
