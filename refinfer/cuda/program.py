"""The device runner of the elementwise register programs: the programs of
ops/_kernels/program.py (same op codes, same rows, same registers), run by
one kernel per dtype that interprets a program for each element of a
grid-stride loop.

One interpreting kernel rather than one compiled per program: a program
is data (rows of opcode, dst, a, b), so every op and every fused chain
shares three compiled kernels (float32, float64, float16) instead of paying NVVM
0.1-0.3 s per program at first use; the price is a branch per row and
element, to be measured against compiled-per-program kernels on a GPU.

A thread's registers are a local array; the constant registers are filled
once per thread, the operand registers once per element. Operands
broadcast as NumPy's: an operand of the result's size is read at the
element's index, one of one element at 0, any other through its
broadcast strides. The arithmetic follows the CPU runner's formulas (NaN
handling included) with the GPU's math library (:data:`device.dmath`).

float16 operands are read into float32 registers. Their program is either
float32 (its constants float32), whose result is rounded to float16 once,
as most references compute float16 ("float16 computed in float32 and
rounded back"), or float16, whose every row's result is rounded to
float16, as a reference of plain NumPy operators on float16 arrays rounds
each (Addcmul, SquaredDifference: the caller picks). Either way a result
within 1 float16 ulp of the reference's: the only difference left is the
GPU's float32 math library against NumPy's before that rounding. The
fusion pass fuses float32 and float64 only, so a float16 program is one
op's.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numba
import numpy as np

from refinfer.ops._kernels.program import (
    ACT_FAST_GELU, ACT_GELU, ACT_GELU_ERF, ACT_HSIGMOID, ACT_HSWISH, ACT_MISH,
    ACT_RELU, ACT_RELU6, ACT_SIGMOID, ACT_SILU, ACT_SOFTPLUS, ACT_TANH,
    FIRST_EXTENDED, FIRST_PARAM, FIRST_ROUNDING, FIRST_UNARY, LN2, SQRT2,
    OP_ABS, OP_ACOS, OP_ACOSH, OP_ADD, OP_ASIN, OP_ASINH, OP_ATAN, OP_ATAN2,
    OP_ATANH, OP_CEIL, OP_CELU, OP_COPY, OP_COS, OP_COSH, OP_DIV, OP_DIV_NO_NAN,
    OP_ELU, OP_ERF, OP_ERFC, OP_ERFINV, OP_EXP, OP_EXP2, OP_EXPM1, OP_FLOOR,
    OP_HSHRINK, OP_HYPOT, OP_LOG, OP_LOG10, OP_LOG1P, OP_LOG2,
    OP_MAX, OP_MIN, OP_MUL, OP_NEG, OP_POW, OP_RINT, OP_SIGN, OP_SIN,
    OP_SINH, OP_SOFTPLUS_BETA, OP_SOFTSHRINK, OP_SQRT, OP_SQUARE, OP_SUB,
    OP_TAN, OP_TRUNC, Program)
from refinfer.ops._ref.math import _erfinv_scalar

from . import device
from .device import cuda, device_function, dmath

DTYPES = (np.float32, np.float64, np.float16)     # one compiled runner each
# The dtype of a runner's registers and of its programs' constants.
REGISTER_DTYPES = {np.dtype(np.float16): np.dtype(np.float32)}
MAX_REGISTERS = 32      # a longer program declines (the CPU kernel runs)
FULL, CONSTANT, STRIDED = 0, 1, 2     # how an operand is read (_offset)
GELU_K0, GELU_K1 = 2 * math.sqrt(2 / math.pi), 0.044715
FAST_GELU_K = -1.702

erfinv = device_function(_erfinv_scalar)    # the reference's own algorithm


@device_function
def rint(x):
    """x rounded to an integer, halves to even (math has no rint)."""
    r = dmath.floor(x)
    rest = x - r
    if rest > 0.5 or rest == 0.5 and r - 2 * dmath.floor(r / 2) != 0:
        return r + 1
    return r


@device_function
def _softplus(x):
    """ln(1 + e ** x) as NumPy's logaddexp(0, x): max(x, 0) +
    ln(1 + e ** -|x|), no overflow, NaN propagates."""
    return (x if x > 0 else 0.0) + dmath.log1p(dmath.exp(-abs(x)))


@device_function
def _activation(act, v):
    """ACT_* of v, the formulas of program.activate_span."""
    if act == ACT_RELU:
        return 0.0 if v < 0 else v
    if act == ACT_RELU6:        # ReLU6(NaN) = 0, as MindSpore's CPU kernel
        v = v if v >= 0 else 0.0
        return 6.0 if v > 6 else v
    if act == ACT_HSWISH or act == ACT_HSIGMOID:
        c = v + 3
        c = 0.0 if c < 0 else c
        c = 6.0 if c > 6 else c
        return (v * c if act == ACT_HSWISH else c) / 6
    if act == ACT_SIGMOID or act == ACT_SILU:
        s = 1 / (1 + dmath.exp(-v))
        return s if act == ACT_SIGMOID else v * s
    if act == ACT_TANH:
        return dmath.tanh(v)
    if act == ACT_GELU:
        return v / (1 + dmath.exp(-GELU_K0 * (v + GELU_K1 * v * v * v)))
    if act == ACT_FAST_GELU:    # x / (1 + e ** -1.702|x|) * e ** 0.851 (x - |x|)
        m = abs(v)
        e = dmath.exp(FAST_GELU_K * m)
        g = v / (1 + e)
        return g if v - m == 0 else g * e
    if act == ACT_MISH:         # x n / (n + 2), n = e ** x (e ** x + 2)
        if not v < 20:          # (tanh is 1 beyond 20)
            return v
        e = dmath.exp(v)
        n = e * (e + 2)
        return v * n / (n + 2)
    if act == ACT_SOFTPLUS:
        return _softplus(v)
    if act == ACT_GELU_ERF:     # in float64, as the reference (GeluExt)
        w = float(v)
        return 0.5 * w * (1.0 + math.erf(w / SQRT2))
    return v                    # ACT_NONE (OP_COPY)


@device_function
def _binary(op, x, y):
    """x op y for OP_ADD ... OP_LEAKY; MAX and MIN propagate NaN."""
    if op == OP_ADD:
        return x + y
    if op == OP_SUB:
        return x - y
    if op == OP_MUL:
        return x * y
    if op == OP_DIV:
        return x / y
    if op == OP_MAX:
        return x if x >= y or x != x else y
    if op == OP_MIN:
        return x if x <= y or x != x else y
    if op == OP_POW:
        return x ** y
    return x if x > 0 else y * x    # OP_LEAKY


@device_function
def _unary(op, x):
    """op(x) for OP_NEG ... OP_SOFTPLUS (the core unary opcodes)."""
    if op == OP_NEG:
        return -x
    if op == OP_ABS:
        return abs(x)
    if op == OP_EXP:
        return dmath.exp(x)
    if op == OP_LOG:
        return dmath.log(x)
    if op == OP_SQRT:
        return dmath.sqrt(x)
    if op == OP_SQUARE:
        return x * x
    if op == OP_ERF:
        return math.erf(x)
    return _activation(op - OP_COPY, x)


@device_function
def _binary_extended(op, x, y):
    """x op y for OP_ATAN2, OP_HYPOT, OP_DIV_NO_NAN, OP_LOGADDEXP (as
    the CPU runner's)."""
    if op == OP_ATAN2:
        return dmath.atan2(x, y)
    if op == OP_HYPOT:
        return dmath.hypot(x, y)
    if op == OP_DIV_NO_NAN:     # 0 where the divisor is 0 (DivNoNan)
        return x / y if y != 0 else 0.0
    if x == y:                  # also equal infinities
        return x + LN2
    return (x if x > y else y) + dmath.log1p(dmath.exp(-abs(x - y)))


@device_function
def _with_params(op, x, regs, p):
    """op(x) with parameters regs[p], regs[p + 1], ... (OP_ELU ...
    OP_NAN_TO_NUM)."""
    if op == OP_ELU:            # alpha (e ** x - 1) for x <= 0 (or NaN)
        return x if x > 0 else regs[p] * dmath.expm1(x)
    if op == OP_CELU:           # max(x, 0) + min(0, alpha (e ** (x / alpha) - 1))
        e = regs[p] * dmath.expm1(x / regs[p])
        return (x if x >= 0 or x != x else 0.0) + (0.0 if 0 <= e else e)
    if op == OP_HSHRINK:
        return x if abs(x) > regs[p] else 0.0
    if op == OP_SOFTSHRINK:
        lambd = regs[p]
        return x - lambd if x > lambd else (x + lambd if x < -lambd else 0.0)
    if op == OP_SOFTPLUS_BETA:  # x where beta x > threshold
        bx = regs[p] * x
        return x if bx > regs[p + 1] else _softplus(bx) / regs[p]
    if x != x:                  # OP_NAN_TO_NUM
        return regs[p]
    if x == math.inf:
        return regs[p + 1]
    return regs[p + 2] if x == -math.inf else x


@device_function
def _call(op, x):
    """op(x) for the rounding opcodes and those of a math library call
    (OP_CEIL ... OP_SINC), in float64 where the reference computes in it
    (Erfc, Erfinv)."""
    if op == OP_CEIL:
        return dmath.ceil(x)
    if op == OP_FLOOR:
        return dmath.floor(x)
    if op == OP_TRUNC:
        return dmath.trunc(x)
    if op == OP_RINT:
        return rint(x)
    if op == OP_SIGN:           # NaN gives 0, as MindSpore's CPU kernel
        return 1.0 if x > 0 else (-1.0 if x < 0 else 0.0)
    if op == OP_SIN:
        return dmath.sin(x)
    if op == OP_COS:
        return dmath.cos(x)
    if op == OP_TAN:
        return dmath.tan(x)
    if op == OP_ASIN:
        return dmath.asin(x)
    if op == OP_ACOS:
        return dmath.acos(x)
    if op == OP_ATAN:
        return dmath.atan(x)
    if op == OP_SINH:
        return dmath.sinh(x)
    if op == OP_COSH:
        return dmath.cosh(x)
    if op == OP_ASINH:
        return dmath.asinh(x)
    if op == OP_ACOSH:
        return dmath.acosh(x)
    if op == OP_ATANH:
        return dmath.atanh(x)
    if op == OP_EXP2:
        return 2.0 ** x
    if op == OP_EXPM1:
        return dmath.expm1(x)
    if op == OP_LOG2:
        return dmath.log2(x)
    if op == OP_LOG10:
        return dmath.log10(x)
    if op == OP_LOG1P:
        return dmath.log1p(x)
    if op == OP_ERFC:
        return math.erfc(float(x))
    if op == OP_ERFINV:
        return erfinv(float(x))
    y = math.pi * x             # OP_SINC, as NumPy: sin(y) / y, 1 at y == 0
    return dmath.sin(y) / y if y != 0 else 1.0


@device_function
def _offset(i, strides, o, shape):
    """Where a broadcast operand o's value for the result's flat index i
    lies in it."""
    offset = 0
    for d in range(shape.size - 1, -1, -1):
        offset += (i % shape[d]) * strides[o, d]
        i //= shape[d]
    return offset


def register_dtype(dtype) -> np.dtype:
    """The dtype the runner for operands of ``dtype`` computes in, and
    the dtype of the program it takes (float32 for float16)."""
    return REGISTER_DTYPES.get(np.dtype(dtype), np.dtype(dtype))


def runner_signature(dtype: np.dtype) -> tuple:
    """The argument types of the runner for ``dtype`` (see :func:`run`),
    for compiling it ahead of a first call (tools/check_ptx.py)."""
    value, index = numba.from_dtype(dtype)[::1], numba.int64[::1]
    consts = numba.from_dtype(register_dtype(dtype))[::1]
    return (value, index, index, numba.int64[:, ::1], index, consts,
            numba.int64[:, ::1], numba.int64, numba.boolean, value)


@lru_cache(maxsize=None)
def runner(dtype: np.dtype):
    """The interpreting kernel for operands of ``dtype``."""
    register_type = numba.from_dtype(register_dtype(dtype))

    @device.jit
    def run(values, starts, modes, strides, shape, consts, rows, out_reg,
            round_rows, out):
        """out[i] = the program (rows) of the operands (values[starts[o]:])
        for every element i, in a grid-stride loop; with ``round_rows``
        each row's result rounded to float16."""
        regs = cuda.local.array(MAX_REGISTERS, register_type)
        n_in = starts.size
        for k in range(consts.size):
            regs[n_in + k] = consts[k]
        for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
            for o in range(n_in):   # (the common reads without a call)
                if modes[o] == FULL:
                    regs[o] = values[starts[o] + i]
                elif modes[o] == CONSTANT:
                    regs[o] = values[starts[o]]
                else:
                    regs[o] = values[starts[o] + _offset(i, strides, o, shape)]
            for k in range(rows.shape[0]):  # (dispatched here: a call costs)
                op, x, b = rows[k, 0], regs[rows[k, 2]], rows[k, 3]
                if op < FIRST_UNARY:
                    y = _binary(op, x, regs[b])
                elif op < FIRST_EXTENDED:
                    y = _unary(op, x)
                elif op < FIRST_PARAM:
                    y = _binary_extended(op, x, regs[b])
                elif op < FIRST_ROUNDING:
                    y = _with_params(op, x, regs, b)
                else:
                    y = _call(op, x)
                regs[rows[k, 1]] = y
                if round_rows:      # (from the register's float32)
                    regs[rows[k, 1]] = np.float16(regs[rows[k, 1]])
            out[i] = regs[out_reg]
    return run


def layout(shapes, shape: tuple) -> tuple:
    """(starts, modes, strides, dims) of operands of ``shapes`` broadcast
    to ``shape``, their values laid one after another: where each starts,
    how each is read (FULL, CONSTANT, STRIDED) and its element strides
    along the result's dims (0 where it broadcasts)."""
    size = math.prod(shape)
    dims = np.array(shape or (1,), np.int64)
    strides = np.zeros((len(shapes), dims.size), np.int64)
    modes = np.empty(len(shapes), np.int64)
    sizes = [math.prod(s) for s in shapes]
    for o, (own, n) in enumerate(zip(shapes, sizes)):
        modes[o] = FULL if n == size else CONSTANT if n == 1 else STRIDED
        if modes[o] == STRIDED:
            view = np.broadcast_to(np.empty(own, np.int8), shape)
            strides[o] = view.strides
    starts = np.cumsum([0] + sizes[:-1], dtype=np.int64)
    return starts, modes, strides, dims


@lru_cache(maxsize=1024)
def _layout_on_device(shapes: tuple, shape: tuple) -> tuple:
    """The device copies of :func:`layout`, cached: a plan's steady runs
    upload none."""
    return tuple(map(device.to_device, layout(shapes, shape)))


_PROGRAMS: dict = {}     # id(program) -> (program, its consts and rows on the device)


def _program_on_device(program: Program) -> tuple:
    """The device copies of ``program``'s constants and rows, made once
    (the entry holds the program, so its id is not reused)."""
    entry = _PROGRAMS.get(id(program))
    if entry is None or entry[0] is not program:
        if len(_PROGRAMS) >= 1024:
            _PROGRAMS.clear()
        consts = program.consts.astype(register_dtype(program.consts.dtype))
        entry = _PROGRAMS[id(program)] = (program, device.to_device(consts),
                                          device.to_device(program.rows))
    return entry[1:]


def _values(operands, dtype):
    """The operands' values one after another in one device array: the
    operand itself where there is one, device-to-device copies else."""
    if len(operands) == 1:
        return operands[0].reshape(operands[0].size)
    values = device.empty(sum(a.size for a in operands), dtype)
    start = 0
    for a in operands:
        values[start:start + a.size].copy_to_device(a.reshape(a.size),
                                                    stream=device.stream())
        start += a.size
    return values


def run(program: Program, operands):
    """``program`` over ``operands`` (C-contiguous device arrays of one
    dtype; the program's is theirs or :func:`register_dtype` of it) on
    the device; returns the result as a new device array of the operands'
    dtype. None where the shapes do not broadcast, the dtype is not one of
    DTYPES, the operands' dtypes differ or the program needs more than
    MAX_REGISTERS."""
    try:
        shape = np.broadcast_shapes(*(a.shape for a in operands))
    except ValueError:
        return None
    dtype = operands[0].dtype
    if program.n_regs > MAX_REGISTERS or dtype not in DTYPES \
            or any(a.dtype != dtype for a in operands) \
            or program.consts.dtype not in (dtype, register_dtype(dtype)):
        return None
    size = math.prod(shape)
    out = device.empty(shape, dtype)
    if size == 0:
        return out
    shapes = tuple(tuple(a.shape) for a in operands)
    values = _values(operands, dtype)
    device.launch(runner(dtype), size, values, *_layout_on_device(shapes, shape),
                  *_program_on_device(program), program.out_reg,
                  program.consts.dtype != register_dtype(dtype), out.reshape(size))
    if len(operands) > 1:       # scratch laid out by _values: no one reads it now
        device.release(values)
    return out
