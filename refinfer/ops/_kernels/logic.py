"""Fast paths of the comparison, logical, bitwise, integer-division, select
and cast ops.

Compiled (Numba), where the NumPy reference makes several passes or calls
a slow C library function per element:

- :func:`binary_pieces`: one op, by code, over two operands of one dtype.
  The output dtype picks the family at compile time: a bool output runs
  IsClose, an output of the operands' dtype a division (floor / trunc
  quotient and modulo, with MindSpore's x / 0 results for integers, an
  exact fma-based fmod for floats). One signature per dtype and family
  serves the family's ops.
- :func:`select_pieces`: condition ? a : b on the operands' bit patterns
  (unsigned views), so four signatures serve every dtype (Select,
  MaskedFill).
- :func:`float_to_int`: Cast from float to int32 / int64 in one pass, with
  MindSpore's results for NaN, inf and out-of-range values.

Any broadcast runs in one pass, walked in contiguous pieces of up to CHUNK
elements by _kernels/broadcast.py, so that every inner loop reads contiguous
memory (and vectorises).

Not compiled: an op that is one NumPy ufunc pass already (comparisons,
logical and bitwise ops, shifts, which NumPy range-checks in its loop,
IsNan) runs that ufunc (:func:`one_pass`). Measured on the project's 2-core
VM: a compiled loop was no faster than NumPy's SIMD loops on one thread
(and would cost a signature per dtype), and cutting the ufunc into blocks
across two threads gained nothing (4M float32 compared: 1.17 ms either
way), where the compiled select did gain (1.97 -> 1.41 ms).

Each op keeps to its reference's semantics (promotion by
``_ref.common.promote`` first); float16 arithmetic is declined, for the
reference. Each op's kernel (the end of the module) has the op's
signature and returns None where it declines. Work is split across
threads by refinfer/threads.py's parallel_for.
"""
from __future__ import annotations

import math

import numpy as np
from numba import types
from numba.extending import intrinsic, overload

from refinfer.jit import kernel
from refinfer.threads import min_items, parallel_for

from . import broadcast, program
from .._ref.common import cast, promote
from .._ref.math import bitwise_operands

# -- op codes of the compiled families -----------------------------------------
IS_CLOSE, IS_CLOSE_NAN = range(2)                         # bool results
FLOOR_DIV, TRUNC_DIV, FLOOR_MOD, TRUNC_MOD = range(4)     # the operands' dtype

CHUNK = 4096
SMALL = 1024     # outputs below this go to NumPy where it does one pass
FAST_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_NO_CONSTS = np.zeros(2)


# -- compiled families ---------------------------------------------------------
def _is_close(op, x, xo, y, yo, out, oo, m, consts):
    """IsClose of floats with rtol, atol = consts (in x's dtype, as NumPy
    converts Python floats): True where x == y or, both finite,
    |x - y| <= atol + rtol |y|; IS_CLOSE_NAN also where both are NaN."""
    xo, yo, oo = np.uint64(xo), np.uint64(yo), np.uint64(oo)
    inf = x.dtype.type(np.inf)
    rtol, atol = x.dtype.type(consts[0]), x.dtype.type(consts[1])
    nan_too = op == IS_CLOSE_NAN
    for j in range(np.uint64(m)):
        a, b = x[xo + j], y[yo + j]
        near = abs(a - b) <= atol + rtol * abs(b)
        close = (a == b) | (near & (abs(a) < inf) & (abs(b) < inf))
        out[oo + j] = close | (nan_too & (a != a) & (b != b))


@intrinsic
def _fma(typingctx, a, b, c):
    """a * b + c rounded once (LLVM's fma), for floats of one type."""
    if not isinstance(a, types.Float) or not a == b == c:
        return None

    def codegen(context, builder, signature, args):
        return builder.fma(*args)
    return a(a, b, c), codegen


def _float_divide(op, x, xo, y, yo, out, oo, m, consts):
    """Float floor(x / y) and trunc(x / y) (the quotient rounded in x's
    dtype first, as the reference's two passes: x / 0 is +-inf, 0 / 0
    NaN), fmod(x, y) (TRUNC_MOD) and NumPy's remainder (FLOOR_MOD: fmod
    moved into y's sign, a zero taking y's sign; x mod 0 is NaN).

    fmod is exact without the C library's (20 times slower) loop: where
    |x / y| < 2**(mantissa bits - 1), q = trunc(x / y) is the true quotient
    or one past it, so r = fma(-q, y, x) is exact and one step corrects it;
    inf, NaN and y = 0 are selected; pieces with a larger quotient get a
    second pass through the C library for those elements."""
    xo, yo, oo = np.uint64(xo), np.uint64(yo), np.uint64(oo)
    if op == FLOOR_DIV:
        for j in range(np.uint64(m)):
            out[oo + j] = np.floor(x[xo + j] / y[yo + j])
        return
    if op == TRUNC_DIV:
        for j in range(np.uint64(m)):
            out[oo + j] = np.trunc(x[xo + j] / y[yo + j])
        return
    zero, inf, nan = x.dtype.type(0), x.dtype.type(np.inf), x.dtype.type(np.nan)
    limit = x.dtype.type(0.5) / np.finfo(x.dtype).eps
    floored = op == FLOOR_MOD
    huge = False
    # Conditional expressions only: they become selects, so the loop
    # vectorises (and random signs mispredict no branch).
    for j in range(np.uint64(m)):
        a, b = x[xo + j], y[yo + j]
        r = _fma(-np.trunc(a / b), b, a)
        past = (r != zero) & ((r < zero) != (a < zero))
        r = np.copysign(r + np.copysign(abs(b), a) if past else r, a)
        r = a if (abs(b) == inf) & (abs(a) < inf) else r
        r = nan if (b == zero) | (abs(a) == inf) else r
        huge |= (abs(a) >= limit * abs(b)) & (abs(a) < inf) & (abs(b) < inf)
        out[oo + j] = _to_divisor_sign(r, b, zero) if floored else r
    if huge:
        for j in range(np.uint64(m)):
            a, b = x[xo + j], y[yo + j]
            if (abs(a) >= limit * abs(b)) & (abs(a) < inf) & (abs(b) < inf):
                r = np.fmod(a, b)
                out[oo + j] = _to_divisor_sign(r, b, zero) if floored else r


@kernel
def _to_divisor_sign(r, b, zero):
    """NumPy's remainder from r = fmod(x, b): moved into b's sign, a zero
    taking b's sign."""
    moved = r + b if (r != zero) & ((r < zero) != (b < zero)) else r
    return np.copysign(zero, b) if r == zero else moved


@intrinsic
def _machine_divide(typingctx, a, b):
    """(trunc(a / b), a - trunc(a / b) * b) by the CPU's division in a's own
    integer type (b == a's type, b nonzero, not MIN / -1): one instruction,
    where Numba's ``//`` widens small types to 64 bits and adds a floor
    correction."""
    if not isinstance(a, types.Integer) or a != b:
        return None

    def codegen(context, builder, signature, args):
        x, y = args
        if a.signed:
            q, r = builder.sdiv(x, y), builder.srem(x, y)
        else:
            q, r = builder.udiv(x, y), builder.urem(x, y)
        return context.make_tuple(builder, signature.return_type, (q, r))
    return types.UniTuple(a, 2)(a, b), codegen


def _int_divide(op, x, xo, y, yo, out, oo, m, consts):
    """Integer division as MindSpore 2.7.1's CPU kernels: floor and trunc
    quotients (x / 0 saturates: the dtype's max for x > 0, its min for
    x < 0, 0 for 0), the floored modulo (x mod 0 = the dtype's min) and the
    truncated one (x mod 0 = 0). A signed MIN / -1 wraps to MIN, as in
    NumPy, instead of trapping. (Integer division does not vectorise, so
    one loop serves the four ops.)"""
    xo, yo, oo = np.uint64(xo), np.uint64(yo), np.uint64(oo)
    info = np.iinfo(x.dtype)
    # Constants typed as x: a Python int mixed with uint64 computes in float.
    zero, one = x.dtype.type(0), x.dtype.type(1)
    low, high = x.dtype.type(info.min), x.dtype.type(info.max)
    signed = info.min < 0
    minus_one = x.dtype.type(-1) if signed else high
    quotient = op == FLOOR_DIV or op == TRUNC_DIV
    floored = op == FLOOR_DIV or op == FLOOR_MOD
    mod_by_zero = low if floored else zero
    for j in range(np.uint64(m)):
        a, b = x[xo + j], y[yo + j]
        if b == zero:
            q, r = (high if a > zero else (low if a < zero else zero)), mod_by_zero
        elif signed and b == minus_one:
            q, r = zero - a, zero      # wraps: MIN / -1 = MIN
        else:
            q, r = _machine_divide(a, b)
            # Selects, not a branch: random signs would mispredict it.
            past = floored & (r != zero) & ((r < zero) != (b < zero))
            q, r = (q - one, r + b) if past else (q, r)
        out[oo + j] = q if quotient else r


def _span(op, x, xo, y, yo, out, oo, m, consts):
    """out[oo:oo+m] = op(x[xo:], y[yo:]), by the family that the dtypes
    pick (see :func:`_choose_span`)."""


@overload(_span, jit_options={"error_model": "numpy"})
def _choose_span(op, x, xo, y, yo, out, oo, m, consts):
    """At compile time: a bool output runs IsClose, else floats and
    integers divide."""
    if out.dtype == types.boolean:
        return _is_close
    return _float_divide if isinstance(x.dtype, types.Float) else _int_divide


@kernel
def float_to_int(x, out, first, last):
    """out[i] = x[i] truncated toward zero, for first <= i < last, out int32
    or int64: NaN, +-inf and values outside out's range give its minimum
    (MindSpore's CPU Cast; ``_ref.common.float_to_int``). Computed in x's own
    dtype (the range ends are powers of two, exact in float32), so that
    float32 -> int32 vectorises."""
    low = out.dtype.type(np.iinfo(out.dtype).min)
    limit = -x.dtype.type(low)
    for i in range(np.uint64(first), np.uint64(last)):
        t = np.trunc(x[i])
        out[i] = out.dtype.type(t) if (t >= -limit) & (t < limit) else low   # "&": no branch


@kernel
def binary_pieces(op, a, b, dims, steps, consts, out, first, last):
    """Pieces first <= t < last of out = op(a, b) (all flat; dims, steps
    from _kernels/broadcast.py's plan)."""
    index = np.empty(dims.size, np.int64)
    size = broadcast.buffer_size(dims, CHUNK)
    a_mode, a_buf = broadcast.buffer(a, 0, steps, size)
    b_mode, b_buf = broadcast.buffer(b, 1, steps, size)
    for t in range(first, last):
        piece = broadcast.piece(t, dims, CHUNK)
        x, xo = broadcast.operand(a, 0, a_mode, dims, steps, piece, index, a_buf)
        y, yo = broadcast.operand(b, 1, b_mode, dims, steps, piece, index, b_buf)
        row, rows, c0, m = piece
        _span(op, x, xo, y, yo, out, row * dims[-1] + c0, rows * m, consts)


@kernel
def select_pieces(cond, a, b, dims, steps, out, first, last):
    """Pieces first <= t < last of out = cond ? a : b (as binary_pieces)."""
    index = np.empty(dims.size, np.int64)
    size = broadcast.buffer_size(dims, CHUNK)
    c_mode, c_buf = broadcast.buffer(cond, 0, steps, size)
    a_mode, a_buf = broadcast.buffer(a, 1, steps, size)
    b_mode, b_buf = broadcast.buffer(b, 2, steps, size)
    for t in range(first, last):
        piece = broadcast.piece(t, dims, CHUNK)
        c, co = broadcast.operand(cond, 0, c_mode, dims, steps, piece, index, c_buf)
        x, xo = broadcast.operand(a, 1, a_mode, dims, steps, piece, index, a_buf)
        y, yo = broadcast.operand(b, 2, b_mode, dims, steps, piece, index, b_buf)
        row, rows, c0, m = piece
        co, xo, yo = np.uint64(co), np.uint64(xo), np.uint64(yo)
        oo = np.uint64(row * dims[-1] + c0)
        for j in range(np.uint64(rows * m)):
            chosen, other = x[xo + j], y[yo + j]   # both loaded: a blend, no branch
            out[oo + j] = chosen if c[co + j] else other


# -- running ------------------------------------------------------------------
def _prepare(operands):
    """(output shape, flat operands, dims, steps, piece count) for a
    runner."""
    shape, dims, steps, count = broadcast.plan(tuple(v.shape for v in operands), CHUNK)
    return shape, tuple(program.flat(v) for v in operands), dims, steps, count


def binary(op: int, a: np.ndarray, b: np.ndarray, out_dtype,
           consts: np.ndarray = _NO_CONSTS) -> np.ndarray:
    """op(a, b) for two arrays of one float32/float64 or integer dtype (the
    caller checks) into a new array of ``out_dtype`` (bool for IsClose, else
    the operands' dtype)."""
    shape, (x, y), dims, steps, count = _prepare((a, b))
    out = np.empty(shape, out_dtype)
    if out.size:
        flat = out.reshape(-1)
        parallel_for(count, lambda first, last: binary_pieces(
            op, x, y, dims, steps, consts, flat, first, last), grain=min_items(CHUNK))
    return out


def where(cond: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """cond ? a : b for a bool ``cond`` and a, b of one dtype, moved as
    unsigned integers of the dtype's width; None for an item size of none
    of 1, 2, 4, 8 bytes."""
    bits = _BITS.get(a.dtype.itemsize)
    if bits is None:
        return None
    shape, (c, x, y), dims, steps, count = _prepare((cond, a, b))
    out = np.empty(shape, a.dtype)
    if out.size:
        x, y, flat = x.view(bits), y.view(bits), out.reshape(-1).view(bits)
        parallel_for(count, lambda first, last: select_pieces(
            c, x, y, dims, steps, flat, first, last), grain=min_items(CHUNK))
    return out


# -- the ops' kernels: the reference's signature, None to decline --------------
def _arrays(*values) -> bool:
    return all(isinstance(v, np.ndarray) for v in values)


def _small(*operands) -> bool:
    """Whether the operands' broadcast has fewer than SMALL elements, where
    one NumPy pass costs less than a compiled runner's fixed ~8 us."""
    return math.prod(np.broadcast_shapes(*(np.shape(v) for v in operands))) < SMALL


def _as_given(*values):
    return values


def one_pass(fn, operands=_as_given):
    """The kernel of an op that is one NumPy ufunc pass ``fn`` over its
    ``operands(*values)`` (the values themselves, or promoted or checked
    as the reference does): comparisons, logical, bitwise and shift ops."""
    def run(*values):
        return np.asarray(fn(*operands(*values)))
    return run


def comparison(fn):
    """The kernel of a comparison: ``fn`` of the promoted operands."""
    return one_pass(fn, promote)


def bitwise(fn):
    """The kernel of a bitwise or shift op: ``fn`` of the operands
    promoted (and checked) as the reference does."""
    return one_pass(fn, bitwise_operands)


def float_test(fn, *more):
    """The kernel of IsNan, IsInf, IsFinite, IsNegInf (x == -inf):
    fn(input, *more) of a float tensor; other dtypes declined (the
    reference answers them with a constant)."""
    def run(input):
        return np.asarray(fn(input, *more)) if input.dtype.kind == "f" else None
    return run


def invert(input):
    """Invert by NumPy's one pass; floats declined (the reference rejects
    them)."""
    return None if input.dtype.kind == "f" else np.asarray(np.invert(input))


def _divide(op: int, input, other):
    """FLOOR_DIV, TRUNC_DIV, FLOOR_MOD or TRUNC_MOD of the promoted
    operands in their dtype, compiled for integers and float32/float64;
    float16 (and small) float modulo is NumPy's one-pass np.mod / np.fmod;
    float16 quotients and bool declined."""
    a, b = promote(input, other)
    if not (_arrays(a, b) and a.dtype == b.dtype and a.dtype.kind in "iuf"):
        return None
    floating, compiled = a.dtype.kind == "f", a.dtype.kind != "f" or a.dtype in FAST_FLOATS
    if floating and op in (FLOOR_MOD, TRUNC_MOD) and (not compiled or _small(a, b)):
        with np.errstate(all="ignore"):    # float16, or small: NumPy's one pass
            return np.asarray((np.mod if op == FLOOR_MOD else np.fmod)(a, b))
    if not compiled:                       # float16 quotients
        return None
    if op == FLOOR_DIV and a.dtype.kind in "iu" and b.size == 1 \
            and b.reshape(-1)[0] not in (0, -1):
        # A safe constant divisor: NumPy divides by multiplying (libdivide),
        # ten times faster than the CPU's division in the kernel.
        return np.asarray(np.floor_divide(a, b))
    return binary(op, a, b, a.dtype)


def division(op: int):
    """The kernel of FloorDiv, FloorMod, Mod, Fmod, Remainder: op (FLOOR_DIV,
    TRUNC_DIV, FLOOR_MOD, TRUNC_MOD) in one compiled pass (:func:`_divide`)."""
    def run(input, other):
        return _divide(op, input, other)
    return run


def div_mod(input, other, rounding_mode=None):
    """DivMod: trunc and floor by :func:`_divide`; true division declined
    (the reference is Div's, one NumPy pass)."""
    if rounding_mode is None:
        return None
    return _divide(FLOOR_DIV if rounding_mode == "floor" else TRUNC_DIV, input, other)


def is_close(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """IsClose in the reference's work dtype (float32 for float16/float32,
    float64 for float64, integers and bools), in one compiled pass."""
    a, b = promote(input, other)
    if not _arrays(a, b):
        return None
    work = np.dtype(np.float32) if a.dtype.kind == "f" and a.dtype.itemsize <= 4 \
        else np.dtype(np.float64)
    return binary(IS_CLOSE_NAN if equal_nan else IS_CLOSE, a.astype(work, copy=False),
                  b.astype(work, copy=False), np.bool_, np.array([rtol, atol], np.float64))


def select(condition, input, other):
    """Select: condition ? input : other, operands promoted, in one compiled
    pass (:func:`where`); small outputs and Python scalars declined."""
    if _small(condition, input, other):
        return None
    a, b = promote(input, other)
    if not _arrays(condition, a, b):
        return None
    return where(condition.astype(np.bool_, copy=False), a, b)


def masked_fill(input_x, mask, value):
    """MaskedFill: mask ? value (in input_x's dtype) : input_x, in one
    compiled pass (:func:`where`); small outputs declined."""
    if not _arrays(input_x, mask) or _small(input_x, mask):
        return None
    fill = cast(np.asarray(value), input_x.dtype)
    return where(mask.astype(np.bool_, copy=False), fill, input_x)


def float_cast(input_x, dtype):
    """Cast: float32/float64 to an integer dtype in one compiled pass into
    the int32 or int64 that MindSpore converts through, then wrapped into a
    narrower dtype (one cheap astype; uint64 is a view); the other
    conversions are declined (one NumPy astype pass already: the
    reference)."""
    dtype = np.dtype(dtype)
    if not (isinstance(input_x, np.ndarray) and input_x.dtype in FAST_FLOATS
            and dtype.kind in "iu"):
        return None
    via = np.int32 if dtype.itemsize < 4 or dtype == np.int32 else np.int64
    wide = np.empty(input_x.shape, via)
    src, flat = program.flat(input_x), wide.reshape(-1)
    parallel_for(wide.size, lambda first, last: float_to_int(
        src, flat, first, last), grain=min_items(1))
    if dtype.itemsize == wide.itemsize:
        return wide.view(dtype)
    return wide.astype(dtype)
