"""Numba building blocks shared by the fast (``numba`` backend) kernels.

- Activations by code, applied to a span in place (fused epilogues).
- :func:`epilogue`: y = act(y + bias[channel] + residual) in place, after a
  GEMM or convolution (:func:`epilogue_rows` from a wider product).
- An elementwise *program* runner: a fused chain of float elementwise ops
  (or a single op) is a short list of register operations executed chunk
  by chunk, so one compiled kernel per dtype serves every chain and the
  intermediate values never leave the cache.
- Reductions over trailing axes, row by row; per-thread scratch buffers.

Parallel work is split into ranges by refinfer/threads.py's parallel_for.

All kernels here take float32 or float64 arrays and compute in that dtype,
as the reference kernels do; callers fall back to the reference for other
dtypes.
"""
from __future__ import annotations

import math
import threading
from functools import lru_cache

import numpy as np

from refinfer.jit import kernel
from refinfer.threads import min_items, parallel_for

from ._reduce import reduce_axes

FAST_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))

# -- activations -------------------------------------------------------------
(ACT_NONE, ACT_RELU, ACT_RELU6, ACT_HSWISH, ACT_SIGMOID, ACT_TANH, ACT_GELU,
 ACT_FAST_GELU) = range(8)
ACTIVATIONS = {"ReLU": ACT_RELU, "ReLU6": ACT_RELU6, "HSwish": ACT_HSWISH,
               "Sigmoid": ACT_SIGMOID, "Tanh": ACT_TANH, "GeLU": ACT_GELU,
               "FastGeLU": ACT_FAST_GELU}


# Numba notes that shape these kernels: a sub-array view costs reference
# counting (tens of ns), so per-row views are avoided; an index Numba cannot
# prove non-negative (base + j) gets a wrap-around check that turns the loop
# into gathers, so such indices are unsigned (base and j both np.uint64); a
# literal int mixed with float32 computes in float64, so constants come
# typed (dtype.type(6)).
@kernel
def activate_span(y, o, start, count, act):
    """y[o, start:start + count] = act(...) in place (y 2-D), with the
    reference's formulas in y's dtype; NaN propagates (ReLU6 gives 0)."""
    zero, one = y.dtype.type(0), y.dtype.type(1)
    three, six = y.dtype.type(3), y.dtype.type(6)
    base = np.uint64(start)
    if act == ACT_RELU:     # "+ zero": else LLVM stores only the zeros,
        for j in range(np.uint64(count)):   # with slow masked stores
            v = y[o, base + j]
            y[o, base + j] = (zero if v < zero else v) + zero
    elif act == ACT_RELU6:  # ReLU6(NaN) = 0, as MindSpore's CPU kernel
        for j in range(np.uint64(count)):
            v = y[o, base + j]
            v = v if v >= zero else zero
            y[o, base + j] = six if v > six else v
    elif act == ACT_HSWISH:
        for j in range(np.uint64(count)):
            v = y[o, base + j]
            c = v + three
            c = zero if c < zero else c
            c = six if c > six else c
            y[o, base + j] = v * c / six
    elif act == ACT_SIGMOID:
        for j in range(np.uint64(count)):
            y[o, base + j] = one / (one + np.exp(-y[o, base + j]))
    elif act == ACT_TANH:
        for j in range(np.uint64(count)):
            y[o, base + j] = np.tanh(y[o, base + j])
    elif act == ACT_GELU:     # 0.5 x (1 + tanh(u)) = x / (1 + exp(-2u))
        k0, k1 = y.dtype.type(2 * np.sqrt(2 / np.pi)), y.dtype.type(0.044715)
        for j in range(np.uint64(count)):
            v = y[o, base + j]
            y[o, base + j] = v / (one + np.exp(-k0 * (v + k1 * v * v * v)))
    elif act == ACT_FAST_GELU:
        k0, k1 = y.dtype.type(-1.702), y.dtype.type(0.851)
        for j in range(np.uint64(count)):
            v = y[o, base + j]
            m = abs(v)
            y[o, base + j] = v / (one + np.exp(k0 * m)) * np.exp(k1 * (v - m))


@kernel
def activate(row, act):
    """Activation ``act`` on a 1-D array in place."""
    activate_span(row.reshape(1, row.size), 0, 0, row.size, act)


@kernel
def epilogue(y, bias, residual, act, start, stop):
    """In place on y (C, pixels), columns start:stop of every channel:
    y[c] = act(y[c] + bias[c] + residual[c]). An empty ``bias`` or
    ``residual`` (size 0) is skipped."""
    zero = y.dtype.type(0)
    base, count = np.uint64(start), np.uint64(stop - start)
    for o in range(y.shape[0]):
        b = bias[o] if bias.size else zero
        if residual.size:
            for j in range(count):
                y[o, base + j] = y[o, base + j] + b + residual[o, base + j]
        elif bias.size:
            for j in range(count):
                y[o, base + j] += b
        activate_span(y, o, start, count, act)


@kernel
def epilogue_rows(src, dst, bias, residual, act, pitch, row0, row1):
    """The epilogue of a GEMM over padded rows, rows row0 <= i < row1: dst
    (C, H*W) gets act(src + bias + residual) of src (C, H*pitch), the
    pitch - W extra columns of each row dropped."""
    zero = dst.dtype.type(0)
    width = dst.shape[1] // (src.shape[1] // pitch)
    for o in range(dst.shape[0]):
        b = bias[o] if bias.size else zero
        for i in range(row0, row1):
            s0, d0 = np.uint64(i * pitch), np.uint64(i * width)
            if residual.size:
                for j in range(np.uint64(width)):
                    dst[o, d0 + j] = src[o, s0 + j] + b + residual[o, d0 + j]
            else:
                for j in range(np.uint64(width)):
                    dst[o, d0 + j] = src[o, s0 + j] + b
            activate_span(dst, o, i * width, width, act)


def no_bias(dtype) -> np.ndarray:
    return np.empty(0, dtype)


def no_residual(dtype) -> np.ndarray:
    return np.empty((0, 0), dtype)


def apply_epilogue(y: np.ndarray, bias, residual, act: int) -> np.ndarray:
    """In place on y (N, C, ...): y = act(y + bias[c] + residual)."""
    if bias is None and residual is None and act == ACT_NONE:
        return y
    view = y.reshape(y.shape[0], y.shape[1], -1)
    bias = no_bias(y.dtype) if bias is None else bias
    res = None if residual is None else writable(residual).reshape(view.shape)
    for b in range(y.shape[0]):
        _parallel_epilogue(view[b], bias, None if res is None else res[b], act)
    return y


def _parallel_epilogue(y, bias, residual, act) -> None:
    """:func:`epilogue` over all of y (C, pixels), channels split across
    the worker threads."""
    def channels(lo, hi):
        epilogue(y[lo:hi], bias[lo:hi] if bias.size else bias,
                 no_residual(y.dtype) if residual is None else residual[lo:hi],
                 act, 0, y.shape[1])
    parallel_for(y.shape[0], channels, grain=min_items(y.shape[1]))


_scratch = threading.local()


def scratch(slot: str, shape: tuple, dtype) -> np.ndarray:
    """A reusable work buffer of this thread (contents undefined): large
    temporaries such as im2col matrices are not re-allocated, and so not
    page-faulted in again, at every call."""
    buffers = _scratch.__dict__.setdefault("buffers", {})
    size = math.prod(shape) * np.dtype(dtype).itemsize
    buffer = buffers.get(slot)
    if buffer is None or buffer.size < size:
        buffer = buffers[slot] = np.empty(size, np.uint8)
    return buffer[:size].view(dtype).reshape(shape)


# -- elementwise programs ----------------------------------------------------
# Binary opcodes, then unary ones. A program row is (opcode, dst, a, b) over
# registers: first the operands, then the constants, then temporaries; dst
# is never an operand of its own row (in-place rows would not vectorise).
# The activation opcodes are in ACT_* order (see _unary).
(OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MAX, OP_MIN, OP_POW,
 OP_NEG, OP_ABS, OP_EXP, OP_LOG, OP_SQRT, OP_SQUARE, OP_ERF, OP_COPY,
 OP_RELU, OP_RELU6, OP_HSWISH, OP_SIGMOID, OP_TANH, OP_GELU,
 OP_FAST_GELU) = range(22)
FIRST_UNARY = OP_NEG

# Operand kinds over a (rows, cols) view of the output.
FULL, ROW, COL = 0, 1, 2
MAX_OPERANDS = 4
CHUNK = 1024


@kernel
def _binary(op, r, d, a, b, m):
    """r[d, :m] = r[a, :m] op r[b, :m] (r: the register file)."""
    if op == OP_ADD:
        for j in range(m):
            r[d, j] = r[a, j] + r[b, j]
    elif op == OP_SUB:
        for j in range(m):
            r[d, j] = r[a, j] - r[b, j]
    elif op == OP_MUL:
        for j in range(m):
            r[d, j] = r[a, j] * r[b, j]
    elif op == OP_DIV:
        for j in range(m):
            r[d, j] = r[a, j] / r[b, j]
    elif op == OP_MAX:
        for j in range(m):
            x, y = r[a, j], r[b, j]
            r[d, j] = x if x >= y or x != x else y
    elif op == OP_MIN:
        for j in range(m):
            x, y = r[a, j], r[b, j]
            r[d, j] = x if x <= y or x != x else y
    elif op == OP_POW:
        for j in range(m):
            r[d, j] = r[a, j] ** r[b, j]


@kernel
def _unary(op, r, d, a, m):
    """r[d, :m] = op(r[a, :m])."""
    if op == OP_NEG:
        for j in range(m):
            r[d, j] = -r[a, j]
    elif op == OP_ABS:
        for j in range(m):
            r[d, j] = abs(r[a, j])
    elif op == OP_EXP:
        for j in range(m):
            r[d, j] = np.exp(r[a, j])
    elif op == OP_LOG:
        for j in range(m):
            r[d, j] = np.log(r[a, j])
    elif op == OP_SQRT:
        for j in range(m):
            r[d, j] = np.sqrt(r[a, j])
    elif op == OP_SQUARE:
        for j in range(m):
            r[d, j] = r[a, j] * r[a, j]
    elif op == OP_ERF:
        for j in range(m):
            r[d, j] = math.erf(r[a, j])
    else:
        for j in range(m):
            r[d, j] = r[a, j]
        activate_span(r, d, 0, m, op - OP_COPY)


@kernel
def _load(src, kind, size, row, c0, cols, m, r, d):
    """Register d = the operand's values for columns c0:c0+m of row ``row``."""
    if kind == FULL:
        base = np.uint64(row * cols + c0)
        for j in range(np.uint64(m)):
            r[d, j] = src[base + j]
    elif kind == ROW:
        base = np.uint64(c0)
        for j in range(np.uint64(m)):
            r[d, j] = src[base + j]
    else:
        v = src[row % size]
        for j in range(m):
            r[d, j] = v


@kernel
def run_program(operands, kinds, consts, program, n_regs, out_reg, cols,
                out, first, last):
    """Evaluate ``program`` for the pieces first <= t < last of out (rows *
    cols elements, flat; piece t = chunk t % n_chunks of row t // n_chunks,
    see :func:`pieces`).

    operands: tuple of MAX_OPERANDS 1-D arrays (unused ones empty); kinds
    (n_operands, 2): (FULL | ROW | COL, size); consts: constant registers.
    """
    chunk = min(cols, CHUNK)
    n_chunks = (cols + chunk - 1) // chunk
    n_in = kinds.shape[0]
    regs = np.empty((n_regs, chunk), out.dtype)
    for t in range(first, last):
        row, ch = divmod(t, n_chunks)
        c0 = ch * chunk
        m = min(chunk, cols - c0)
        for i in range(n_in):
            _load(operands[i], kinds[i, 0], kinds[i, 1], row, c0, cols, m,
                  regs, i)
        for i in range(consts.size):
            for j in range(m):
                regs[n_in + i, j] = consts[i]
        for k in range(program.shape[0]):
            op, dst, a, b = program[k, 0], program[k, 1], program[k, 2], \
                program[k, 3]
            if op < FIRST_UNARY:
                _binary(op, regs, dst, a, b, m)
            else:
                _unary(op, regs, dst, a, m)
        base = np.uint64(row * cols + c0)
        for j in range(np.uint64(m)):
            out[base + j] = regs[out_reg, j]


@lru_cache(maxsize=4096)
def layout(shapes: tuple) -> tuple | None:
    """How to run a program over operands of these shapes: (output shape,
    rows, cols, kinds) for the (rows, cols) split that every operand fits
    as FULL, ROW (repeats along rows) or COL (one value per row, repeating
    with period ``size``), preferring long rows; None if there is none."""
    ndim = max(len(s) for s in shapes)
    padded = [(1,) * (ndim - len(s)) + tuple(s) for s in shapes]
    try:
        out = tuple(np.broadcast_shapes(*padded))
    except ValueError:
        return None
    for split in range(ndim + 1):
        kinds = [_kind(s, out, split) for s in padded]
        if all(k is not None for k in kinds):
            rows = math.prod(out[:split])
            return out, rows, math.prod(out[split:]), np.array(kinds, np.int64)
    return None


def _kind(shape, out, split):
    head, tail = shape[:split], shape[split:]
    size = math.prod(shape)
    if shape == out:
        return FULL, size
    if all(d == 1 for d in head) and tail == out[split:]:
        return ROW, size
    if all(d == 1 for d in tail):
        lead = 0
        while lead < split and head[lead] == 1:
            lead += 1
        if head[lead:] == out[lead:split]:
            return COL, size
    return None


_EMPTY = {dtype: np.empty(0, dtype) for dtype in FAST_DTYPES}


def writable(a: np.ndarray) -> np.ndarray:
    """``a`` as a C-contiguous writable array (a copy only if needed):
    Numba types read-only arrays (weights mapped from the model file)
    apart, which would double the compiled signatures."""
    if a.flags.c_contiguous and a.flags.writeable:
        return a
    return np.array(a, order="C")


def run(program: np.ndarray, n_regs: int, out_reg: int, operands, consts,
        out: np.ndarray | None = None):
    """Run an elementwise program on arrays of one float dtype; returns the
    result (written into ``out`` when given: it may be a FULL operand), or
    None when the operands' broadcast has no (rows, cols) layout."""
    plan = layout(tuple(a.shape for a in operands))
    if plan is None:
        return None
    shape, rows, cols, kinds = plan
    dtype = operands[0].dtype
    if out is None:
        out = np.empty(shape, dtype)
    if out.size == 0:
        return out
    flat = tuple(writable(a).reshape(-1) for a in operands)
    flat += (_EMPTY[dtype],) * (MAX_OPERANDS - len(flat))
    target = out.reshape(-1)
    parallel_for(pieces(rows, cols), lambda first, last: run_program(
        flat, kinds, consts, program, n_regs, out_reg, cols, target, first,
        last), grain=min_items(CHUNK))
    return out


def pieces(rows: int, cols: int) -> int:
    """The number of CHUNK-sized pieces :func:`run_program` cuts out into."""
    return rows * -(-cols // min(cols, CHUNK))


def float_operands(*values) -> tuple | None:
    """The values as arrays of one float32/float64 dtype, if they are: all
    ndarrays of that dtype, or Python numbers beside them (which take the
    tensor's dtype, as in the reference's promotion). Else None."""
    dtype = None
    for v in values:
        if type(v) is np.ndarray:
            if dtype is None:
                dtype = v.dtype
            elif v.dtype != dtype:
                return None
        elif type(v) is not float and type(v) is not int:
            return None
    if dtype not in FAST_DTYPES:
        return None
    return tuple(v if type(v) is np.ndarray else np.asarray(v, dtype)
                 for v in values)


UFUNCS = {OP_ADD: np.add, OP_SUB: np.subtract, OP_MUL: np.multiply,
          OP_DIV: np.true_divide, OP_MAX: np.maximum, OP_MIN: np.minimum,
          OP_POW: np.power, OP_NEG: np.negative, OP_ABS: np.abs,
          OP_EXP: np.exp, OP_LOG: np.log, OP_SQRT: np.sqrt,
          OP_SQUARE: np.square}
# Ops whose reference silences NumPy's floating-point warnings (overflow,
# division by zero, invalid) around the same computation.
QUIET = {OP_DIV, OP_POW, OP_EXP, OP_LOG, OP_SQRT}
_SINGLE: dict = {}
_NO_CONSTS = {dtype: np.empty(0, dtype) for dtype in FAST_DTYPES}


def elementwise(opcode: int, reference, *values):
    """One elementwise op on float32/float64 operands of one dtype: NumPy's
    own loop where there is a ufunc (one op gains nothing from the program
    runner), else the program runner; anything else, or a broadcast
    without a layout, through ``reference``."""
    operands = float_operands(*values)
    if operands is None:
        return reference(*values)
    if opcode in UFUNCS:
        if opcode not in QUIET:
            return np.asarray(UFUNCS[opcode](*operands))
        with np.errstate(all="ignore"):
            return np.asarray(UFUNCS[opcode](*operands))
    result = run(_single(opcode, len(operands)), len(operands) + 1,
                 len(operands), operands, _NO_CONSTS[operands[0].dtype])
    return reference(*values) if result is None else result


def _single(opcode: int, arity: int) -> np.ndarray:
    """The one-row program ``r[arity] = op(r0[, r1])``."""
    key = (opcode, arity)
    if key not in _SINGLE:
        _SINGLE[key] = np.array([(opcode, arity, 0, 1 if arity == 2 else 0)],
                                np.int64)
    return _SINGLE[key]


def bias_activation(y: np.ndarray, bias, act: int) -> np.ndarray:
    """In place: y = act(y + bias) with bias along the last axis (or
    None); returns y."""
    if bias is None and act == ACT_NONE:
        return y
    operands = (y,) if bias is None else (y, bias)
    program = _bias_act_program(bias is not None, act)
    return run(program, int(program[-1, 1]) + 1, int(program[-1, 1]), operands,
               _NO_CONSTS[y.dtype], out=y)


@lru_cache(maxsize=None)
def _bias_act_program(has_bias: bool, act: int) -> np.ndarray:
    final = OP_COPY + act      # OP_COPY + ACT_NONE is the copy
    rows = [(OP_ADD, 2, 0, 1), (final, 3, 2, 0)] if has_bias \
        else [(final, 1, 0, 0)]
    return np.array(rows, np.int64)


# -- reductions over trailing axes --------------------------------------------
SUM, MEAN, MAX = range(3)


@kernel
def reduce_rows(x, out, kind):
    """out[r] = the sum, mean or maximum of row r of x (R, C). Sums
    accumulate in float64; the maximum propagates NaN."""
    cols = x.shape[1]
    for r in range(x.shape[0]):
        if kind == MAX:
            top = x[r, 0]
            for j in range(1, cols):
                v = x[r, j]
                if v > top or v != v:
                    top = v
                    if v != v:
                        break
            out[r] = top
        else:
            total = 0.0
            for j in range(cols):
                total += x[r, j]
            out[r] = total / cols if kind == MEAN else total


def reduce_trailing(x, axes, keepdims: bool, kind: int):
    """A float32/float64 reduction over the last len(axes) axes (any order)
    with :func:`reduce_rows`; None for anything else (other axes, dtypes,
    empty tensors), which the caller hands to the reference."""
    if float_operands(x) is None or x.ndim == 0 or x.size == 0 or not axes:
        return None
    first = x.ndim - len(axes)
    if sorted(axes) != list(range(first, x.ndim)):
        return None
    rows = math.prod(x.shape[:first])
    out, x2 = np.empty(rows, x.dtype), writable(x).reshape(rows, -1)
    parallel_for(rows, lambda lo, hi: reduce_rows(x2[lo:hi], out[lo:hi], kind),
                 grain=min_items(x2.shape[1]))
    kept = (1,) * len(axes) if keepdims else ()
    return out.reshape(x.shape[:first] + kept)


def reduction(kind: int, reference, reference_args, x, axes, keepdims,
              applies: bool = True):
    """The Numba variant of a reduction op: :func:`reduce_trailing` when it
    applies, else ``reference(*reference_args)``."""
    fast = reduce_trailing(x, reduce_axes(axes, np.ndim(x)), keepdims, kind) \
        if applies else None
    return reference(*reference_args) if fast is None else fast
