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
elements by ops/_broadcast.py, so that every inner loop reads contiguous
memory (and vectorises).

Not compiled: an op that is one NumPy ufunc pass already (comparisons,
logical and bitwise ops, shifts, which NumPy range-checks in its loop,
IsNan) runs that ufunc (:func:`ufunc`). Measured on the project's 2-core
VM: a compiled loop was no faster than NumPy's SIMD loops on one thread
(and would cost a signature per dtype), and cutting the ufunc into blocks
across two threads gained nothing (4M float32 compared: 1.17 ms either
way), where the compiled select did gain (1.97 -> 1.41 ms).

Each op keeps to its reference's semantics (promotion by ``_common.promote``
first); float16 arithmetic goes to the reference. Work is split across
threads by refinfer/threads.py's parallel_for.
"""
from __future__ import annotations

import math

import numpy as np
from numba import types
from numba.extending import intrinsic, overload

from refinfer.jit import kernel
from refinfer.threads import min_items, parallel_for

from . import broadcast as _broadcast
from . import program as _fast
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
    (MindSpore's CPU Cast; ``_common.float_to_int``). Computed in x's own
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
    from ops/_broadcast.py's plan)."""
    index = np.empty(dims.size, np.int64)
    size = _broadcast.buffer_size(dims, CHUNK)
    a_mode, a_buf = _broadcast.buffer(a, 0, steps, size)
    b_mode, b_buf = _broadcast.buffer(b, 1, steps, size)
    for t in range(first, last):
        piece = _broadcast.piece(t, dims, CHUNK)
        x, xo = _broadcast.operand(a, 0, a_mode, dims, steps, piece, index, a_buf)
        y, yo = _broadcast.operand(b, 1, b_mode, dims, steps, piece, index, b_buf)
        row, rows, c0, m = piece
        _span(op, x, xo, y, yo, out, row * dims[-1] + c0, rows * m, consts)


@kernel
def select_pieces(cond, a, b, dims, steps, out, first, last):
    """Pieces first <= t < last of out = cond ? a : b (as binary_pieces)."""
    index = np.empty(dims.size, np.int64)
    size = _broadcast.buffer_size(dims, CHUNK)
    c_mode, c_buf = _broadcast.buffer(cond, 0, steps, size)
    a_mode, a_buf = _broadcast.buffer(a, 1, steps, size)
    b_mode, b_buf = _broadcast.buffer(b, 2, steps, size)
    for t in range(first, last):
        piece = _broadcast.piece(t, dims, CHUNK)
        c, co = _broadcast.operand(cond, 0, c_mode, dims, steps, piece, index, c_buf)
        x, xo = _broadcast.operand(a, 1, a_mode, dims, steps, piece, index, a_buf)
        y, yo = _broadcast.operand(b, 2, b_mode, dims, steps, piece, index, b_buf)
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
    shape, dims, steps, count = _broadcast.plan(tuple(v.shape for v in operands), CHUNK)
    return shape, tuple(_fast.flat(v) for v in operands), dims, steps, count


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


# -- entry points of the ops ---------------------------------------------------
def _or_reference(result, reference, *values):
    return reference(*values) if result is None else result


def _arrays(*values) -> bool:
    return all(isinstance(v, np.ndarray) for v in values)


def ufunc(fn, *operands) -> np.ndarray:
    """fn(*operands) (a NumPy ufunc; arrays or Python numbers) as an array."""
    return np.asarray(fn(*operands))


def _small(*operands) -> bool:
    """Whether the operands' broadcast has fewer than SMALL elements, where
    one NumPy pass costs less than a compiled runner's fixed ~8 us."""
    return math.prod(np.broadcast_shapes(*(np.shape(v) for v in operands))) < SMALL


def comparison(fn, input, other):
    """A comparison ufunc of the promoted operands (bool result)."""
    return ufunc(fn, *promote(input, other))


def float_test(fn, reference, x, *more):
    """fn(x, *more) for IsNan, IsInf, IsFinite, IsNegInf (x == -inf) of a
    float tensor (the reference answers other dtypes with a constant)."""
    return ufunc(fn, x, *more) if x.dtype.kind == "f" else reference(x)


def is_close(reference, input, other, rtol, atol, equal_nan):
    """IsClose in the reference's work dtype: float32 for float16/float32,
    float64 for float64 and for integers and bools."""
    a, b = promote(input, other)
    if not _arrays(a, b):
        return reference(input, other, rtol, atol, equal_nan)
    work = np.dtype(np.float32) if a.dtype.kind == "f" and a.dtype.itemsize <= 4 \
        else np.dtype(np.float64)
    return binary(IS_CLOSE_NAN if equal_nan else IS_CLOSE, a.astype(work, copy=False),
                  b.astype(work, copy=False), np.bool_, np.array([rtol, atol], np.float64))


def bitwise(fn, input, other):
    """A bitwise or shift ufunc of operands promoted (and checked) as the
    reference does."""
    return ufunc(fn, *bitwise_operands(input, other))


def division(op: int, reference, input, other):
    """FLOOR_DIV, TRUNC_DIV, FLOOR_MOD or TRUNC_MOD of the promoted
    operands in their dtype, compiled for integers and float32/float64;
    float16 (and small) float modulo is NumPy's one-pass np.mod / np.fmod,
    float16 quotients and bool go to the reference."""
    a, b = promote(input, other)
    if not (_arrays(a, b) and a.dtype == b.dtype and a.dtype.kind in "iuf"):
        return reference(input, other)
    floating, compiled = a.dtype.kind == "f", a.dtype.kind != "f" or a.dtype in FAST_FLOATS
    if floating and op in (FLOOR_MOD, TRUNC_MOD) and (not compiled or _small(a, b)):
        with np.errstate(all="ignore"):    # float16, or small: NumPy's one pass
            return ufunc(np.mod if op == FLOOR_MOD else np.fmod, a, b)
    if not compiled:                       # float16 quotients
        return reference(input, other)
    if op == FLOOR_DIV and a.dtype.kind in "iu" and b.size == 1 \
            and b.reshape(-1)[0] not in (0, -1):
        # A safe constant divisor: NumPy divides by multiplying (libdivide),
        # ten times faster than the CPU's division in the kernel.
        return ufunc(np.floor_divide, a, b)
    return binary(op, a, b, a.dtype)


def select(reference, condition, input, other):
    """Select: condition ? input : other, operands promoted."""
    if _small(condition, input, other):
        return reference(condition, input, other)
    a, b = promote(input, other)
    result = None
    if _arrays(condition, a, b):
        result = where(condition.astype(np.bool_, copy=False), a, b)
    return _or_reference(result, reference, condition, input, other)


def masked_fill(reference, input_x, mask, value):
    """MaskedFill: mask ? value (in input_x's dtype) : input_x."""
    result = None
    if _arrays(input_x, mask) and not _small(input_x, mask):
        fill = cast(np.asarray(value), input_x.dtype)
        result = where(mask.astype(np.bool_, copy=False), fill, input_x)
    return _or_reference(result, reference, input_x, mask, value)


def float_cast(reference, x, dtype):
    """Cast: float32/float64 to an integer dtype in one compiled pass into
    the int32 or int64 that MindSpore converts through, then wrapped into a
    narrower dtype (one cheap astype; uint64 is a view); the other
    conversions are one NumPy astype pass already (the reference)."""
    dtype = np.dtype(dtype)
    if not (isinstance(x, np.ndarray) and x.dtype in FAST_FLOATS
            and dtype.kind in "iu"):
        return reference(x, dtype)
    via = np.int32 if dtype.itemsize < 4 or dtype == np.int32 else np.int64
    wide = np.empty(x.shape, via)
    src, flat = _fast.flat(x), wide.reshape(-1)
    parallel_for(wide.size, lambda first, last: float_to_int(
        src, flat, first, last), grain=min_items(1))
    if dtype.itemsize == wide.itemsize:
        return wide.view(dtype)
    return wide.astype(dtype)
