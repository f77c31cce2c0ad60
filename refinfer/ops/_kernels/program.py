"""Numba building blocks shared by the fast (``numba`` backend) kernels.

- Activations by code, applied to a span in place (fused epilogues): the
  convolution kernels fuse the light ones and leave the others (exp, tanh
  or erf inside) to a pass over each piece they wrote, so that a CNN with
  ReLUs does not compile those (1.6-2.2 s per kernel and dtype); that
  pass, and a product's bias and activation, compile the one activation
  they apply (:func:`columns_kernel`).
- :func:`epilogue`: y = act(y + bias[channel] + residual) in place, after a
  GEMM or convolution (:func:`epilogue_rows` from a wider product).
- An elementwise *program* runner: a fused chain of float elementwise ops
  (or a single op) is a short list of register operations executed chunk
  by chunk, so one compiled kernel per dtype serves every chain and the
  intermediate values never leave the cache (two in fact: the core
  opcodes, and all of them, compiled only where used). Programs are
  written with :class:`ProgramBuilder`; _kernels/elementwise.py holds the
  recipes of the math and activation ops, _kernels/libm.py the
  vectorisable exp, log and tanh they use.
- Per-thread scratch buffers.

Parallel work is split into ranges by refinfer/threads.py's parallel_for.

All kernels here take float32 or float64 arrays and compute in that dtype,
as the reference kernels do; callers decline other dtypes (the registry
then runs the reference).
"""
from __future__ import annotations

import functools
import math
import threading
from dataclasses import dataclass

import numpy as np

from refinfer.jit import kernel
from refinfer.threads import min_items, parallel_for

from . import broadcast as _broadcast
from .libm import (erf_single, fast_exp, fast_expm1, fast_log, fast_log1p,
                   fast_tanh, inlined, logaddexp, softplus)
from .._ref.math import _erfinv_scalar

FAST_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))

# -- activations -------------------------------------------------------------
# The light ones come first: the convolution kernels fuse only those (see
# activate_light).
(ACT_NONE, ACT_RELU, ACT_RELU6, ACT_HSWISH, ACT_HSIGMOID,
 ACT_SIGMOID, ACT_TANH, ACT_GELU, ACT_FAST_GELU, ACT_SILU, ACT_MISH,
 ACT_GELU_ERF, ACT_SOFTPLUS) = range(13)
FIRST_HEAVY = ACT_SIGMOID
ACTIVATIONS = {"ReLU": ACT_RELU, "ReLU6": ACT_RELU6, "HSwish": ACT_HSWISH,
               "Sigmoid": ACT_SIGMOID, "Tanh": ACT_TANH, "GeLU": ACT_GELU,
               "FastGeLU": ACT_FAST_GELU, "SiLU": ACT_SILU,
               "HSigmoid": ACT_HSIGMOID, "Mish": ACT_MISH, "MishExt": ACT_MISH,
               "Softplus": ACT_SOFTPLUS}
LN2, SQRT2 = math.log(2.0), math.sqrt(2.0)


# Numba notes that shape these kernels: a sub-array view costs reference
# counting (tens of ns), so per-row views are avoided; an index Numba cannot
# prove non-negative (base + j) gets a wrap-around check that turns the loop
# into gathers, so such indices are unsigned (base and j both np.uint64); a
# literal int mixed with float32 computes in float64, so constants come
# typed (dtype.type(6)).
@kernel
def activate_light(y, o, start, count, act):
    """y[o, start:start + count] = act(...) in place (y 2-D) for the light
    activations, act < FIRST_HEAVY; it leaves y alone for the others.

    The convolution kernels fuse only these: the heavy ones (exp, tanh, erf
    inside) take 1.6-2.2 s to compile per dtype, in every kernel that fuses
    them, and CNNs rarely use them. A caller that may pass one applies
    :func:`activate_heavy` to what the kernel wrote."""
    zero, three, six = y.dtype.type(0), y.dtype.type(3), y.dtype.type(6)
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
    elif act == ACT_HSWISH or act == ACT_HSIGMOID:
        for j in range(np.uint64(count)):
            v = y[o, base + j]
            c = v + three
            c = zero if c < zero else c
            c = six if c > six else c
            y[o, base + j] = (v * c if act == ACT_HSWISH else c) / six


@inlined
def activate_span(y, o, start, count, act):
    """y[o, start:start + count] = act(...) in place (y 2-D), any ACT_*
    code, with the reference's formulas in y's dtype; NaN propagates
    (ReLU6 gives 0). Each heavy activation is a kernel of its own: where
    ``act`` is a constant (:func:`columns_kernel`), Numba prunes this chain
    to one call before it types the code, and compiles that one alone."""
    if act < FIRST_HEAVY:
        activate_light(y, o, start, count, act)
    elif act == ACT_SIGMOID or act == ACT_SILU:
        _sigmoid_span(y, o, start, count, act)
    elif act == ACT_TANH:
        _tanh_span(y, o, start, count)
    elif act == ACT_GELU or act == ACT_FAST_GELU:
        _gelu_span(y, o, start, count, act)
    elif act == ACT_MISH:
        _mish_span(y, o, start, count)
    elif act == ACT_SOFTPLUS:
        _softplus_span(y, o, start, count)
    elif act == ACT_GELU_ERF:
        _gelu_erf_span(y, o, start, count)


@kernel
def _sigmoid_span(y, o, start, count, act):
    """Sigmoid, or SiLU where ``act`` is ACT_SILU: (x *) 1 / (1 + e ** -x)
    (one loop: one copy of exp)."""
    one, base = y.dtype.type(1), np.uint64(start)
    for j in range(np.uint64(count)):
        v = y[o, base + j]
        s = one / (one + fast_exp(-v))
        y[o, base + j] = s if act == ACT_SIGMOID else v * s


@kernel
def _tanh_span(y, o, start, count):
    base = np.uint64(start)
    for j in range(np.uint64(count)):
        y[o, base + j] = fast_tanh(y[o, base + j])


@kernel
def _gelu_span(y, o, start, count, act):
    """GeLU: 0.5 x (1 + tanh(u)) = x / (1 + e ** -2u). FastGeLU (``act``
    ACT_FAST_GELU): x / (1 + e ** -1.702|x|) * e ** 0.851 (x - |x|), whose
    second exponent is the first where x - |x| != 0 (x < 0; NaN for x =
    inf, where both give NaN): one exp serves both."""
    zero, one, base = y.dtype.type(0), y.dtype.type(1), np.uint64(start)
    k0, k1 = y.dtype.type(2 * np.sqrt(2 / np.pi)), y.dtype.type(0.044715)
    k2 = y.dtype.type(-1.702)
    for j in range(np.uint64(count)):
        v = y[o, base + j]
        m = abs(v)
        e = fast_exp(-k0 * (v + k1 * v * v * v) if act == ACT_GELU
                     else k2 * m)
        g = v / (one + e)
        y[o, base + j] = g if act == ACT_GELU or v - m == zero else g * e


@kernel
def _mish_span(y, o, start, count):
    """x tanh(ln(1 + e ** x)) = x n / (n + 2), n = e ** x (e ** x + 2)
    (tanh is 1 beyond 20)."""
    zero, base = y.dtype.type(0), np.uint64(start)
    limit, two = y.dtype.type(20), y.dtype.type(2)
    for j in range(np.uint64(count)):
        v = y[o, base + j]
        e = fast_exp(v if v < limit else zero)
        n = e * (e + two)
        y[o, base + j] = v * n / (n + two) if v < limit else v


@kernel
def _softplus_span(y, o, start, count):
    ln2, base = y.dtype.type(LN2), np.uint64(start)
    for j in range(np.uint64(count)):
        y[o, base + j] = softplus(y[o, base + j], ln2)


@kernel
def _gelu_erf_span(y, o, start, count):
    """0.5 x (1 + erf(x / sqrt(2))) (GeluExt), in float64 as the
    reference; for float32, erf to float32's precision, vectorised."""
    base = np.uint64(start)
    if y.itemsize == 4:
        for j in range(np.uint64(count)):
            v = np.float64(y[o, base + j])
            y[o, base + j] = 0.5 * v * (1.0 + erf_single(v / SQRT2))
    else:
        for j in range(np.uint64(count)):
            v = y[o, base + j]
            y[o, base + j] = 0.5 * v * (1.0 + math.erf(v / SQRT2))


@kernel
def activate(row, act):
    """:func:`activate_light` on a 1-D array."""
    activate_light(row.reshape(1, row.size), 0, 0, row.size, act)


@functools.cache
def columns_kernel(act: int):
    """A kernel ``(y, bias, first, last)``: in place, y[r, first:last] =
    act(y[r, first:last] + bias[first:last]) for every row r of y (2-D,
    unit steps along rows; no bias where it is empty), the activation
    ``act`` (any ACT_* code) a constant of it: Numba prunes
    :func:`activate_span`'s chain to that one activation before typing, so
    a transformer's first predict compiles its GeLU alone (1 s; the kernel
    with every activation took 4 s)."""
    @kernel
    def activate_columns(y, bias, first, last):
        start = np.uint64(first)    # (unsigned: no wrap-around checks)
        for r in range(y.shape[0]):
            if bias.size:
                for j in range(np.uint64(last - first)):
                    y[r, start + j] += bias[start + j]
            activate_span(y, r, first, last - first, act)
    return activate_columns


def activate_heavy(y: np.ndarray, act: int) -> None:
    """In place on y (2-D): the activation ``act`` if it is a heavy one,
    which a kernel that wrote y with :func:`activate_light` left out."""
    if act >= FIRST_HEAVY:
        columns_kernel(act)(y, no_bias(y.dtype), 0, y.shape[1])


@kernel
def epilogue(y, bias, residual, act, start, stop):
    """In place on y (C, pixels), columns start:stop of every channel:
    y[c] = act(y[c] + bias[c] + residual[c]), act light (a heavy one is
    left out). An empty ``bias`` or ``residual`` (size 0) is skipped."""
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
        # an int count, as every caller passes: one compilation of it
        activate_light(y, o, start, stop - start, act)


@kernel
def epilogue_rows(src, dst, bias, residual, act, pitch, row0, row1):
    """The epilogue of a GEMM over padded rows, rows row0 <= i < row1: dst
    (C, H*W) gets act(src + bias + residual) of src (C, H*pitch), the
    pitch - W extra columns of each row dropped (act: as :func:`epilogue`)."""
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
            activate_light(dst, o, i * width, width, act)


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
        activate_heavy(y[lo:hi], act)
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
# A program row is (opcode, dst, a, b) over registers: first the operands,
# then the constants, then temporaries; dst is never an operand of its own
# row (in-place rows would not vectorise). Binary opcodes read r[a] and
# r[b]; opcodes with parameters read r[a] and the constant registers b,
# b + 1, ... (at column 0, once per chunk); unary ones read r[a] only.
#
# The *core* opcodes (arithmetic, the common unary functions, OP_COPY + ACT_*
# for the activations) run in :func:`run_core`; a program with any of the
# others runs in :func:`run_any`, which costs as much again to compile (5 s
# per dtype) and so is compiled only for models that use them.
(OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MAX, OP_MIN, OP_POW, OP_LEAKY,
 OP_NEG, OP_ABS, OP_EXP, OP_LOG, OP_SQRT, OP_SQUARE, OP_ERF,
 OP_COPY, OP_RELU, OP_RELU6, OP_HSWISH, OP_HSIGMOID, OP_SIGMOID, OP_TANH,
 OP_GELU, OP_FAST_GELU, OP_SILU, OP_MISH, OP_GELU_ERF, OP_SOFTPLUS,
 # extended: binary
 OP_ATAN2, OP_HYPOT, OP_LOGADDEXP, OP_DIV_NO_NAN,
 # extended: with parameters
 OP_ELU, OP_CELU, OP_HSHRINK, OP_SOFTSHRINK, OP_SOFTPLUS_BETA, OP_NAN_TO_NUM,
 # extended: unary, vectorised
 OP_CEIL, OP_FLOOR, OP_TRUNC, OP_RINT, OP_SIGN,
 # extended: unary, a math library call per element (but expm1, log1p)
 OP_SIN, OP_COS, OP_TAN, OP_ASIN, OP_ACOS, OP_ATAN, OP_SINH, OP_COSH,
 OP_ASINH, OP_ACOSH, OP_ATANH, OP_EXP2, OP_EXPM1, OP_LOG2, OP_LOG10,
 OP_LOG1P, OP_ERFC, OP_ERFINV, OP_SINC) = range(62)
FIRST_UNARY, FIRST_EXTENDED = OP_NEG, OP_ATAN2
FIRST_PARAM, FIRST_ROUNDING, FIRST_CALL = OP_ELU, OP_CEIL, OP_SIN

MAX_OPERANDS = 4
CHUNK = 1024
erfinv = kernel(_erfinv_scalar)     # the reference's own float64 algorithm


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
    elif op == OP_LEAKY:    # x > 0 ? x : slope * x (NaN: slope * NaN)
        for j in range(m):
            x = r[a, j]
            r[d, j] = x if x > 0 else r[b, j] * x


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
            r[d, j] = fast_exp(r[a, j])
    elif op == OP_LOG:
        for j in range(m):
            r[d, j] = fast_log(r[a, j])
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
def _core_row(op, r, d, a, b, m):
    """One program row of a core opcode."""
    if op < FIRST_UNARY:
        _binary(op, r, d, a, b, m)
    else:
        _unary(op, r, d, a, m)


@kernel
def _binary_extended(op, r, d, a, b, m):
    """r[d, :m] = r[a, :m] op r[b, :m] for OP_ATAN2 ... OP_DIV_NO_NAN."""
    if op == OP_ATAN2:
        for j in range(m):
            r[d, j] = np.arctan2(r[a, j], r[b, j])
    elif op == OP_HYPOT:
        for j in range(m):
            r[d, j] = np.hypot(r[a, j], r[b, j])
    elif op == OP_DIV_NO_NAN:   # 0 where the divisor is 0 (DivNoNan)
        for j in range(m):
            y = r[b, j]
            r[d, j] = r[a, j] / y if y != 0 else 0
    else:
        ln2 = r.dtype.type(LN2)
        for j in range(m):
            r[d, j] = logaddexp(r[a, j], r[b, j], ln2)


@kernel
def _with_params(op, r, d, a, p, m):
    """r[d, :m] = op(r[a, :m]) with parameters r[p, 0], r[p + 1, 0], ..."""
    zero, one = r.dtype.type(0), r.dtype.type(1)
    if op == OP_ELU:        # alpha (e ** x - 1) for x <= 0 (or NaN)
        alpha = r[p, 0]
        for j in range(m):
            x = r[a, j]
            r[d, j] = x if x > zero else alpha * fast_expm1(x, one)
    elif op == OP_CELU:     # max(x, 0) + min(0, alpha (e ** (x / alpha) - 1))
        alpha = r[p, 0]
        for j in range(m):
            x = r[a, j]
            e = alpha * fast_expm1(x / alpha, one)
            r[d, j] = (x if x >= zero or x != x else zero) + \
                (zero if zero <= e else e)
    elif op == OP_HSHRINK:  # x where |x| > lambd (lambd in x's dtype, see
        lambd = r[p, 0]     # _kernels/elementwise.py), else 0
        for j in range(m):
            x = r[a, j]
            r[d, j] = x if abs(x) > lambd else zero
    elif op == OP_SOFTSHRINK:
        lambd = r[p, 0]
        for j in range(m):
            x = r[a, j]
            r[d, j] = x - lambd if x > lambd else (
                x + lambd if x < -lambd else zero)
    elif op == OP_SOFTPLUS_BETA:    # x where beta x > threshold, else
        beta, threshold = r[p, 0], r[p + 1, 0]  # softplus(beta x) / beta
        ln2 = r.dtype.type(LN2)
        for j in range(m):
            x = r[a, j]
            bx = beta * x
            r[d, j] = x if bx > threshold else softplus(bx, ln2) / beta
    else:                   # OP_NAN_TO_NUM
        nan, posinf, neginf = r[p, 0], r[p + 1, 0], r[p + 2, 0]
        for j in range(m):
            x = r[a, j]
            r[d, j] = nan if x != x else (
                posinf if x == np.inf else (neginf if x == -np.inf else x))


@kernel
def _rounding(op, r, d, a, m):
    """r[d, :m] = op(r[a, :m]) for OP_CEIL ... OP_SIGN."""
    zero, one = r.dtype.type(0), r.dtype.type(1)
    if op == OP_CEIL:
        for j in range(m):
            r[d, j] = np.ceil(r[a, j])
    elif op == OP_FLOOR:
        for j in range(m):
            r[d, j] = np.floor(r[a, j])
    elif op == OP_TRUNC:
        for j in range(m):
            r[d, j] = np.trunc(r[a, j])
    elif op == OP_RINT:     # halves to even
        for j in range(m):
            r[d, j] = np.rint(r[a, j])
    else:                   # OP_SIGN; NaN gives 0, as MindSpore's CPU kernel
        for j in range(m):
            x = r[a, j]
            r[d, j] = one if x > zero else (-one if x < zero else zero)


@kernel
def _call(op, x, pi):
    """op(x) for the opcodes OP_SIN ... OP_SINC but OP_EXPM1 and OP_LOG1P
    (vectorised, see _any_row): in x's dtype where the reference computes
    in it, in float64 where it does (Erfc, Erfinv). One loop calls this for
    every element: each function costs a library call anyway, and one loop
    instead of one per opcode keeps the compile short."""
    if op == OP_SIN:
        return np.sin(x)
    if op == OP_COS:
        return np.cos(x)
    if op == OP_TAN:
        return np.tan(x)
    if op == OP_ASIN:
        return np.arcsin(x)
    if op == OP_ACOS:
        return np.arccos(x)
    if op == OP_ATAN:
        return np.arctan(x)
    if op == OP_SINH:
        return np.sinh(x)
    if op == OP_COSH:
        return np.cosh(x)
    if op == OP_ASINH:
        return np.arcsinh(x)
    if op == OP_ACOSH:
        return np.arccosh(x)
    if op == OP_ATANH:
        return np.arctanh(x)
    if op == OP_EXP2:
        return np.exp2(x)
    if op == OP_LOG2:
        return np.log2(x)
    if op == OP_LOG10:
        return np.log10(x)
    if op == OP_ERFC:
        return math.erfc(np.float64(x))
    if op == OP_ERFINV:
        return erfinv(np.float64(x))
    y = pi * x              # OP_SINC, as NumPy: sin(y) / y, 1 where y == 0
    return np.sin(y) / y if y != 0 else pi / pi


@kernel
def _any_row(op, r, d, a, b, m):
    """One program row of any opcode."""
    if op < FIRST_EXTENDED:
        _core_row(op, r, d, a, b, m)
    elif op < FIRST_PARAM:
        _binary_extended(op, r, d, a, b, m)
    elif op < FIRST_ROUNDING:
        _with_params(op, r, d, a, b, m)
    elif op < FIRST_CALL:
        _rounding(op, r, d, a, m)
    elif op == OP_EXPM1:
        one = r.dtype.type(1)
        for j in range(m):
            r[d, j] = fast_expm1(r[a, j], one)
    elif op == OP_LOG1P:
        one = r.dtype.type(1)
        for j in range(m):
            r[d, j] = fast_log1p(r[a, j], one)
    else:
        pi = r.dtype.type(np.pi)
        for j in range(m):
            r[d, j] = _call(op, r[a, j], pi)


@inlined
def _copy(src, start, regs, i, n):
    """regs[i, :n] = src[start:start + n]."""
    base = np.uint64(start)
    for j in range(np.uint64(n)):
        regs[i, j] = src[base + j]


# Inlined into each runner at compile time: a runner passing its row kernel
# as an argument to a compiled function would bake the kernel's address
# into the code, which Numba then cannot cache.
@inlined
def _run_pieces(row_kernel, operands, consts, program, n_regs, out_reg,
                dims, steps, out, first, last):
    """Evaluate ``program`` (each row by ``row_kernel``) for the pieces
    first <= t < last of the flat ``out``, walked as ops/_broadcast.py cuts
    it (dims, steps: its plan of the operands).

    operands: tuple of MAX_OPERANDS 1-D arrays (unused ones empty); register
    i holds operand i's values for a piece, a constant operand's filled once
    (rows never write operand or constant registers).
    """
    n_in = steps.shape[0] - 1
    size = _broadcast.buffer_size(dims, CHUNK)
    regs = np.empty((n_regs, size), out.dtype)
    all_regs = regs.reshape(-1)     # gathers write registers through it
    index = np.empty(dims.size, np.int64)
    modes = np.empty(n_in, np.int64)
    for i in range(n_in):
        modes[i] = _broadcast.mode(i, steps)
        if modes[i] == _broadcast.CONSTANT:
            regs[i, :] = operands[i][0]
    for i in range(consts.size):
        regs[n_in + i, :] = consts[i]
    for t in range(first, last):
        piece = _broadcast.piece(t, dims, CHUNK)
        row, rows, c0, m = piece
        n = rows * m
        # Register i = operand i's values for the piece (a constant's is
        # filled). The common cases are read here, not by a call: a call
        # with array arguments costs 25-50 ns, 10-20% of a piece.
        for i in range(n_in):
            if modes[i] == _broadcast.FULL:
                _copy(operands[i], row * dims[-1] + c0, regs, i, n)
            elif modes[i] == _broadcast.CONSTANT:
                continue
            elif rows > 1 or dims.size != 2:
                _broadcast.gather(operands[i], i, dims, steps, piece, index,
                                  all_regs, i * size)
            elif steps[i, 1]:       # one row of a 2-D walk: a row vector
                _copy(operands[i], row * steps[i, 0] + c0, regs, i, n)
            else:                   # or a column vector's value
                value = operands[i][row * steps[i, 0]]
                for j in range(n):
                    regs[i, j] = value
        for k in range(program.shape[0]):
            row_kernel(program[k, 0], regs, program[k, 1], program[k, 2],
                       program[k, 3], n)
        base = np.uint64(row * dims[-1] + c0)
        for j in range(np.uint64(n)):
            out[base + j] = regs[out_reg, j]


@kernel
def run_core(operands, consts, program, n_regs, out_reg, dims, steps, out,
             first, last):
    """:func:`_run_pieces` for a program of core opcodes only."""
    _run_pieces(_core_row, operands, consts, program, n_regs, out_reg,
                dims, steps, out, first, last)


@kernel
def run_any(operands, consts, program, n_regs, out_reg, dims, steps, out,
            first, last):
    """:func:`_run_pieces` for a program of any opcodes."""
    _run_pieces(_any_row, operands, consts, program, n_regs, out_reg,
                dims, steps, out, first, last)


_EMPTY = {dtype: np.empty(0, dtype) for dtype in FAST_DTYPES}


def writable(a: np.ndarray) -> np.ndarray:
    """``a`` as a C-contiguous writable array (a copy only if needed):
    Numba types read-only arrays (weights mapped from the model file)
    apart, which would double the compiled signatures."""
    if a.flags.c_contiguous and a.flags.writeable:
        return a
    return np.array(a, order="C")


def flat(a: np.ndarray) -> np.ndarray:
    """``a`` as a :func:`writable` 1-D array (a view where it can be)."""
    return writable(a).reshape(-1)


def run(program: np.ndarray, n_regs: int, out_reg: int, operands, consts,
        out: np.ndarray | None = None):
    """Run an elementwise program on arrays of one float dtype; returns the
    result (written into ``out`` when given: it may be an operand of the
    result's shape), or None when the operands' shapes do not broadcast."""
    try:
        shape, dims, steps, count = _broadcast.plan(tuple(a.shape for a in operands), CHUNK)
    except ValueError:
        return None
    dtype = operands[0].dtype
    if out is None:
        out = np.empty(shape, dtype)
    if out.size == 0:
        return out
    flats = tuple(flat(a) for a in operands)
    flats += (_EMPTY[dtype],) * (MAX_OPERANDS - len(flats))
    target = out.reshape(-1)
    runner = run_core if program[:, 0].max() < FIRST_EXTENDED else run_any
    parallel_for(count, lambda first, last: runner(
        flats, consts, program, n_regs, out_reg, dims, steps, target, first,
        last), grain=min_items(CHUNK))
    return out


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
          OP_LOG: np.log, OP_SQRT: np.sqrt,
          OP_SQUARE: np.square, OP_ATAN2: np.arctan2, OP_HYPOT: np.hypot,
          OP_LOGADDEXP: np.logaddexp, OP_SIN: np.sin, OP_COS: np.cos,
          OP_TAN: np.tan, OP_ASIN: np.arcsin, OP_ACOS: np.arccos,
          OP_ATAN: np.arctan, OP_SINH: np.sinh, OP_COSH: np.cosh,
          OP_ASINH: np.arcsinh, OP_ACOSH: np.arccosh, OP_ATANH: np.arctanh,
          OP_CEIL: np.ceil, OP_FLOOR: np.floor, OP_TRUNC: np.trunc,
          OP_RINT: np.rint, OP_EXP2: np.exp2, OP_EXPM1: np.expm1,
          OP_LOG2: np.log2, OP_LOG10: np.log10, OP_LOG1P: np.log1p}
ARITHMETIC = {OP_ADD, OP_SUB, OP_MUL, OP_DIV}
# Ufuncs run with NumPy's floating-point warnings (overflow, division by
# zero, invalid) silenced, as their references do. The others cannot warn,
# or warn in their references too (an overflowing Add); silencing costs more
# than the op on a small tensor.
QUIET = set(UFUNCS) - {OP_ADD, OP_SUB, OP_MUL, OP_MAX, OP_MIN, OP_NEG, OP_ABS,
                       OP_SQUARE, OP_CEIL, OP_FLOOR, OP_TRUNC, OP_RINT}


@dataclass(frozen=True)
class Program:
    """A register program for one dtype, ready to :func:`run`."""
    rows: np.ndarray        # (n, 4) int64: opcode, dst, a, b
    n_regs: int
    out_reg: int
    n_inputs: int
    consts: np.ndarray      # the constant registers' values, in the dtype

    def __call__(self, operands, out: np.ndarray | None = None):
        """The program over ``operands`` (arrays of its dtype), or None
        when their shapes do not broadcast."""
        return run(self.rows, self.n_regs, self.out_reg, operands,
                   self.consts, out)


class ProgramBuilder:
    """Writes a :class:`Program` from values named by handles: the inputs
    (operand registers, in order), constants, and each row's result. Rows
    are added in evaluation order; registers are assigned at :meth:`build`,
    a temporary's register reused once its last reader has run."""

    def __init__(self, dtype):
        self.dtype, self.n_inputs = np.dtype(dtype), 0
        self.consts: list = []      # values, as 0-d arrays of the dtype
        self.rows: list = []        # (opcode, a, b) handles; result = index

    def input(self, index: int) -> tuple:
        """Operand ``index`` (the operands are passed in this order)."""
        self.n_inputs = max(self.n_inputs, index + 1)
        return ("in", index)

    def const(self, value) -> tuple:
        """A constant register holding ``value`` converted to the dtype
        (as NumPy converts a Python number beside an array of it)."""
        value = self._converted(value)
        for index, known in enumerate(self.consts):
            if known.tobytes() == value.tobytes():
                return ("const", index)
        self.consts.append(value)
        return ("const", len(self.consts) - 1)

    def params(self, *values) -> tuple:
        """Consecutive constant registers (an op's parameters); the handle
        of the first."""
        first = len(self.consts)
        self.consts += [self._converted(v) for v in values]
        return ("const", first)

    def _converted(self, value) -> np.ndarray:
        with np.errstate(over="ignore"):    # 1e39 -> float32 inf, as NumPy
            return np.asarray(value).astype(self.dtype)

    def op(self, opcode: int, a: tuple, b: tuple | None = None) -> tuple:
        """A row computing ``opcode`` of a (and b: a register, or the first
        parameter register); its result's handle."""
        self.rows.append((opcode, a, a if b is None else b))
        return ("row", len(self.rows) - 1)

    def build(self, result: tuple) -> Program:
        if result[0] != "row":      # an input or constant: copy it out
            result = self.op(OP_COPY, result)
        # (lists by row number: a long chain's program has thousands)
        last_use = [0] * len(self.rows)
        for index, (_, a, b) in enumerate(self.rows):
            for handle in (a, b):
                if handle[0] == "row":
                    last_use[handle[1]] = index
        n_fixed = self.n_inputs + len(self.consts)
        free, count, where, rows = [], n_fixed, [0] * len(self.rows), []
        for index, (opcode, a, b) in enumerate(self.rows):
            if free:        # taken before this row's operands are released:
                dst = free.pop()    # a row never writes its own operand
            else:
                dst, count = count, count + 1
            for handle in (a,) if a == b else (a, b):
                if handle[0] == "row" and last_use[handle[1]] == index:
                    free.append(where[handle[1]])
            where[index] = dst
            rows.append((opcode, dst, self._register(a, where),
                         self._register(b, where)))
        consts = np.array(self.consts, self.dtype).reshape(-1)
        return Program(np.array(rows, np.int64), count, where[result[1]],
                       self.n_inputs, consts)

    def _register(self, handle: tuple, where: list) -> int:
        kind, index = handle
        if kind == "in":
            return index
        if kind == "const":
            return self.n_inputs + index
        return where[index]


def is_binary(opcode: int) -> bool:
    """Whether the opcode reads two registers."""
    return opcode < FIRST_UNARY or FIRST_EXTENDED <= opcode < FIRST_PARAM


def alone(program: Program):
    """``program`` as a callable of its operands for an op run alone:
    NumPy's own loop where it is one row of an op NumPy has a ufunc for
    (the runner gains nothing over it there), else the program itself."""
    opcode, _, a, b = program.rows[0].tolist()
    if len(program.rows) > 1 or opcode not in UFUNCS:
        return program
    ufunc, n_inputs, consts = UFUNCS[opcode], program.n_inputs, program.consts
    registers = (a, b) if is_binary(opcode) else (a,)
    if registers == tuple(range(n_inputs)):     # the operands, in order
        pick = tuple
    else:
        def pick(operands):
            return [operands[r] if r < n_inputs else consts[r - n_inputs]
                    for r in registers]

    def run(operands):
        if opcode not in QUIET:
            return np.asarray(ufunc(*pick(operands)))
        with np.errstate(all="ignore"):
            return np.asarray(ufunc(*pick(operands)))
    return run


def plain_arithmetic(program: Program) -> bool:
    """Whether the program is only additions, subtractions, products and
    quotients: memory-bound, so NumPy's SIMD loops, one per op, stream as
    fast as the runner copies through its registers (a lone op of them is
    best left to NumPy; in a longer chain the runner saves passes)."""
    return set(program.rows[:, 0].tolist()) <= ARITHMETIC


# A chain of plain arithmetic this short, on tensors this small, runs as
# NumPy's loops, one per row: they are as fast or faster there (GPT-2's
# attention scale and mask, 12 x 128 x 128: 0.09 ms against the runner's
# 0.17 on one thread, 0.07 against 0.14 on two), and a model whose only
# chains are such then never compiles the runner (10 s). Measured on
# 768 KB and 6 MB, float32, 2 to 6 rows: the runner wins from 4 rows, and
# on 6 MB at two threads (it splits).
SHORT_CHAIN_ROWS = 3
SHORT_CHAIN_ELEMENTS = 1 << 18


def short_arithmetic(program: Program) -> bool:
    """Whether ``program`` is plain arithmetic of SHORT_CHAIN_ROWS at most
    (run it with :func:`run_ufuncs` on up to SHORT_CHAIN_ELEMENTS)."""
    return len(program.rows) <= SHORT_CHAIN_ROWS and plain_arithmetic(program)


def run_ufuncs(program: Program, operands) -> np.ndarray:
    """``program`` (plain arithmetic) run by NumPy, one ufunc per row;
    division by zero gives inf / NaN quietly, as in the runner."""
    regs = list(operands) + list(program.consts)    # then the temporaries
    regs += [None] * (program.n_regs - len(regs))
    with np.errstate(divide="ignore", invalid="ignore"):
        for opcode, dst, a, b in program.rows.tolist():
            regs[dst] = UFUNCS[opcode](regs[a], regs[b])
    return np.asarray(regs[program.out_reg])
