"""The ``cuda`` kernels of the integer, bitwise and division ops (bitwise
and/or/xor and their Tensor/Scalar forms, Invert, LeftShift, RightShift,
FloorDiv, FloorMod, Remainder*, Mod, Fmod*, DivMod, TruncateDiv,
TruncateMod, Gcd, Lcm, Heaviside, MulNoNan, Xdivy, Fmax),
IsClose, MaskedFill, Ger, AddN (a sum at a time) and PopulationCount: two
broadcast binary kernels, one for integer and bool results (computed in
int64, stored wrapping into the result's dtype), one for float results,
each parametrised by an op code, and a masked select. The same kernels run
the elementwise recipe ops (Add, Sub, Mul, Pow, Maximum, Minimum, Neg, Abs,
Square, Sign, ReLU, Trunc, Round, NanToNum, Clamp, SquaredDifference,
AddExt, SubExt, Addcmul; Div into float32) on integer and bool tensors:
:func:`recipe_kernel`, which refinfer/cuda/elementwise.py hands them to.

The result's dtype, and the reference's refusals (a float for a bitwise
op, bool for a division), come from the op's reference run on one-element
host samples of the operands' dtypes; Python-number operands are
converted to that dtype as the reference converts them (wrapping). uint64
results are declined (int64 cannot hold them). Importing this module
declares them."""
from __future__ import annotations

import functools
import math
from typing import Callable

import numpy as np

from refinfer import registry
from refinfer.ops._kernels.elementwise import (ADD_EXT, ADDCMUL, CLAMP, NAN_TO_NUM,
                                               ROUND, SQUARED_DIFFERENCE, SUB_EXT,
                                               binary as binary_recipe,
                                               unary as unary_recipe)
from refinfer.ops._kernels.program import (OP_ABS, OP_ADD, OP_DIV, OP_MAX, OP_MIN,
                                           OP_MUL, OP_NEG, OP_POW, OP_RELU, OP_SIGN,
                                           OP_SQUARE, OP_SUB, OP_TRUNC)

from . import device
from .device import cuda
from .moments import offset

(AND, OR, XOR, LEFT_SHIFT, RIGHT_SHIFT, FLOOR_DIV, FLOOR_MOD, TRUNC_MOD, GCD, LCM,
 HEAVISIDE, INVERT, TRUNC_DIV, TRUE_DIV, IS_CLOSE, MULTIPLY, MUL_NO_NAN, X_DIV_Y,
 FMAX, ADD, POPCOUNT, SUBTRACT, MINIMUM, NEGATIVE, ABSOLUTE, SIGN, RELU,
 POWER) = range(28)


@device.device_function
def _integer(op, x, y, low, high):
    """x op y of int64 values; ``low`` and ``high`` the result dtype's
    range (an integer x // 0 saturates to them, x floor-mod 0 is low)."""
    if op == AND:
        return x & y
    if op == OR:
        return x | y
    if op == XOR:
        return x ^ y
    if op == INVERT:
        return ~x
    if op == MULTIPLY:
        return x * y
    if op == ADD:
        return x + y
    if op == SUBTRACT:
        return x - y
    if op == MINIMUM:
        return x if x <= y else y
    if op == NEGATIVE:
        return -x
    if op == ABSOLUTE:
        return abs(x)
    if op == SIGN:
        return 1 if x > 0 else (-1 if x < 0 else 0)
    if op == RELU:
        return x if x > 0 else 0
    if op == POWER:
        return _power(x, y, low, high)
    if op == POPCOUNT:              # the set bits of x & y, y the dtype's mask
        bits, rest = 0, x & y
        while rest != 0:
            rest &= rest - 1        # (clears the lowest set bit)
            bits += 1
        return bits
    if op == MUL_NO_NAN:
        return 0 if y == 0 else x * y
    if op == FMAX:                  # (also Maximum's: integers have no NaN)
        return x if x >= y else y
    if op == LEFT_SHIFT:
        return x << y if 0 <= y < 64 else 0
    if op == RIGHT_SHIFT:
        if 0 <= y < 64:
            return x >> y
        return -1 if x < 0 else 0
    if op == HEAVISIDE:
        return 0 if x < 0 else (y if x == 0 else 1)
    if op == GCD or op == LCM:
        a, b = abs(x), abs(y)
        while b != 0:
            a, b = b, a % b
        return a if op == GCD else (0 if a == 0 else abs(x) // a * abs(y))
    if y == 0:
        if op == FLOOR_DIV or op == TRUNC_DIV:
            return high if x > 0 else (low if x < 0 else 0)
        return low if op == FLOOR_MOD else 0
    if op == FLOOR_DIV:
        return x // y
    if op == TRUNC_DIV:             # toward zero: floor, one up where inexact
        quotient = x // y           # and the signs differ
        return quotient + 1 if quotient * y != x and (x < 0) != (y < 0) else quotient
    rest = x % y                    # Python's: the divisor's sign
    if op == TRUNC_MOD and rest != 0 and (rest < 0) != (x < 0):
        rest -= y                   # C's: the dividend's sign
    return rest


@device.device_function
def _power(x, y, low, high):
    """x ** y wrapping (by squaring); for y < 0 the real result truncated
    as MindSpore casts it (ops/_ref/math.power): 0 but for x = 1 and -1,
    and x = 0 (inf): the minimum of int32 (of int64 for wider dtypes)
    wrapped into the result's dtype (``low``, ``high`` its range), which
    is its own minimum for int32 and int64, else 0."""
    if y < 0:
        if x == 1 or x == -1:
            return 1 if x == 1 or y % 2 == 0 else -1
        if x == 0:
            return low if high == 2**31 - 1 or high == 2**63 - 1 else 0
        return 0
    result, base = 1, x
    while y > 0:
        if y & 1:
            result *= base
        base *= base
        y >>= 1
    return result


@device.jit
def _integer_binary(a, b, table, op, low, high, out):
    """out[o] = _integer(op, a, b) at o's broadcast offsets (table rows:
    out's shape, a's strides, b's strides; 0 where an axis broadcasts)."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for o in range(start, out.size, stride):
        x = a[offset(o, table[0], table[1])] + 0     # bool and narrow ints
        y = b[offset(o, table[0], table[2])] + 0     # as int64
        out[o] = _integer(op, x, y, low, high)


@device.device_function
def _toward_zero(q):
    """q rounded toward zero (inf and NaN stay)."""
    if q - q != 0:
        return q
    return q - q % 1 if q >= 0 else q + (-q) % 1


@device.jit
def _float_binary(a, b, table, op, rtol, atol, equal_nan, out):
    """out[o] = x op y at o's broadcast offsets, x and y read as floats:
    x / y, floor(x / y), trunc(x / y), x mod y (the divisor's sign, NumPy's
    mod), C's fmod (the dividend's), the Heaviside step, IsClose with
    rtol, atol and equal_nan, MulNoNan, Xdivy or Fmax; x / 0 follows IEEE.
    (Read in float64: one rounding of a float32 product or quotient to
    float32 is the float32 operation's own result.)"""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for o in range(start, out.size, stride):
        x = a[offset(o, table[0], table[1])] + 0.0 * rtol
        y = b[offset(o, table[0], table[2])] + 0.0 * rtol
        if op == TRUE_DIV:
            out[o] = x / y
        elif op == MULTIPLY:
            out[o] = x * y
        elif op == ADD:
            out[o] = x + y
        elif op == MUL_NO_NAN:      # 0 where y is 0, also for x inf or NaN
            out[o] = 0.0 if y == 0 else x * y
        elif op == X_DIV_Y:         # 0 where x is 0, also for y 0 or NaN
            out[o] = 0.0 if x == 0 else x / y
        elif op == FMAX:            # the other value where one is NaN
            out[o] = y if x != x or y > x else x
        elif op == FLOOR_DIV:
            q = x / y
            out[o] = q if q - q != 0 else q - q % 1     # inf and NaN stay
        elif op == TRUNC_DIV:
            out[o] = _toward_zero(x / y)
        elif op == IS_CLOSE:
            near = abs(x - y) <= atol + rtol * abs(y)
            finite = x - x == 0 and y - y == 0
            out[o] = x == y or (near and finite) or (equal_nan and x != x and y != y)
        elif op == HEAVISIDE:
            out[o] = x if x != x else (0 if x < 0 else (y if x == 0 else 1))
        else:
            rest = x % y
            if op == TRUNC_MOD and rest != 0 and (rest < 0) != (x < 0):
                rest -= y
            out[o] = rest


@functools.lru_cache(maxsize=256)
def broadcast_table(shape: tuple, *operand_shapes: tuple):
    """The device copy of the broadcast table: ``shape`` and each
    operand's element strides along it (0 where it broadcasts)."""
    rows = [list(shape)]
    for operand in operand_shapes:
        padded = (1,) * (len(shape) - len(operand)) + operand
        strides = [math.prod(padded[k + 1:]) for k in range(len(padded))]
        rows.append([0 if n == 1 else s for n, s in zip(padded, strides)])
    width = max(len(shape), 1)
    return device.to_device(np.array([row + [1] * (width - len(row)) for row in rows],
                                     np.int64))


def sample(value):
    """A one-element host sample of a device operand (its dtype and rank),
    else the value."""
    if device.is_device_array(value):
        return np.ones((1,) * value.ndim, value.dtype)
    return value


def binary(reference, op: int, input, other, *rest, floats=False, tolerances=(0, 0, 0)):
    """``op`` of ``input`` and ``other`` broadcast, in the dtype of
    ``reference(input, other, *rest)`` run on one-element samples (which
    raises the reference's refusals); with ``floats``, computed by the
    float kernel whatever that dtype (IsClose's bool, DivMod's true
    division of integers); None for a uint64 or complex operand or result
    and shapes that do not broadcast."""
    dtype = reference(sample(input), sample(other), *rest).dtype
    work = dtype if dtype.kind != "b" or not floats else np.dtype(np.float64)
    operands = [v if device.is_device_array(v)
                else device.to_device(np.asarray(v).astype(work))
                for v in (input, other)]
    if any(d.kind == "c" or d == np.uint64 for d in (dtype, *(v.dtype for v in operands))):
        return None
    try:
        shape = np.broadcast_shapes(*(tuple(v.shape) for v in operands))
    except ValueError:
        return None
    return _launch(op, dtype, shape, operands, floats or dtype.kind == "f", tolerances)


def binary_kernel(name: str, op: int):
    """The cuda kernel of a binary op of the integer family."""
    reference = registry.get_op(name).reference

    def run(input, other):
        return binary(reference, op, input, other)
    return run


def _launch(op: int, dtype: np.dtype, shape: tuple, operands: list, floats: bool,
            tolerances=(0, 0, 0)):
    """The result of ``op`` over ``operands`` broadcast to ``shape`` (by
    the float kernel with ``floats``, with IsClose's rtol, atol, equal_nan)."""
    out = device.empty(shape, dtype)
    if not out.size:
        return out
    table = broadcast_table(tuple(shape), *(tuple(v.shape) for v in operands))
    flat = [v.reshape(-1) for v in operands]
    if floats:
        rtol, atol, equal_nan = tolerances
        device.launch(_float_binary, out.size, *flat, table, op, float(rtol),
                      float(atol), bool(equal_nan), out.reshape(-1))
    else:
        info = np.iinfo(dtype) if dtype.kind in "iu" else np.iinfo(np.int8)
        device.launch(_integer_binary, out.size, *flat, table, op, int(info.min),
                      int(info.max), out.reshape(-1))
    return out


def invert(input):
    """Invert: ~x; for bool, logical not (x xor True)."""
    if input.dtype.kind not in "biu" or input.dtype == np.uint64:
        return None
    if input.dtype.kind == "b":
        return _launch(XOR, input.dtype, tuple(input.shape),
                       [input, device.to_device(np.ones((), np.bool_))], False)
    return _launch(INVERT, input.dtype, tuple(input.shape), [input, input], False)


def div_mod(input, other, rounding_mode=None):
    """DivMod: true division (integers into float32), or rounded down
    ("floor") or toward zero ("trunc") in the promoted dtype (bool: the
    int8 quotient's truth)."""
    op = {None: TRUE_DIV, "floor": FLOOR_DIV, "trunc": TRUNC_DIV}.get(rounding_mode)
    if op is None:
        return None
    return binary(registry.get_op("DivMod").reference, op, input, other, rounding_mode,
                  floats=op == TRUE_DIV)


def is_close(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """IsClose: compared as floats."""
    return binary(registry.get_op("IsClose").reference, IS_CLOSE, input, other, rtol,
                  atol, equal_nan, floats=True, tolerances=(rtol, atol, equal_nan))


@device.jit
def _masked(x, mask, fill, table, out):
    """out[o] = fill where mask, else x, at o's broadcast offsets."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for o in range(start, out.size, stride):
        if mask[offset(o, table[0], table[2])]:
            out[o] = fill
        else:
            out[o] = x[offset(o, table[0], table[1])]


def masked_fill(input_x, mask, value):
    """MaskedFill: the fill value converted to input_x's dtype by the
    reference itself, on a one-element sample (a tensor value is read back
    first: one element); None for shapes that do not broadcast."""
    if device.is_device_array(value):
        value = device.to_host(value)
    fill = registry.get_op("MaskedFill").reference(
        np.ones(1, input_x.dtype), np.ones(1, np.bool_), value)[0]
    try:
        shape = np.broadcast_shapes(tuple(input_x.shape), tuple(mask.shape))
    except ValueError:
        return None
    out = device.empty(shape, input_x.dtype)
    if out.size:
        device.launch(_masked, out.size, input_x.reshape(-1), mask.reshape(-1), fill,
                      broadcast_table(tuple(shape), tuple(input_x.shape), tuple(mask.shape)),
                      out.reshape(-1))
    return out


def add_n(inputs):
    """AddN and SequenceAddN (its sequence form): the tensors added left to
    right in their dtype (integers wrap, bool is logical or). Tensors of
    several shapes or dtypes, float16, complex and uint64 decline (the CPU
    kernel adds or raises)."""
    tensors = list(inputs)
    if not tensors or not all(device.is_device_array(t) for t in tensors):
        return None
    dtype, shape = np.dtype(tensors[0].dtype), tuple(tensors[0].shape)
    if any(np.dtype(t.dtype) != dtype or tuple(t.shape) != shape for t in tensors) \
            or dtype.kind not in "biuf" or dtype in (np.float16, np.uint64):
        return None
    total = device.copy(tensors[0])
    for t in tensors[1:]:
        partial, total = total, _launch(ADD, dtype, shape, [total, t], dtype.kind == "f")
        device.release(partial)         # (a sum made here: no one else reads it)
    return total


def population_count(input_x):
    """PopulationCount: the set bits of each element's pattern in its
    dtype's width, as uint8; uint64 and non-integers decline."""
    dtype = np.dtype(input_x.dtype)
    if dtype.kind not in "iu" or dtype == np.uint64:
        return None
    mask = -1 if dtype.itemsize == 8 else (1 << 8 * dtype.itemsize) - 1
    return _launch(POPCOUNT, np.dtype(np.uint8), tuple(input_x.shape),
                   [input_x, device.to_device(np.asarray(mask, np.int64))], False)


def ger(input, vec2):
    """Ger: the outer product in the reference's promoted dtype; None for
    operands that are not vectors (the reference raises)."""
    if input.ndim != 1 or vec2.ndim != 1:
        return None
    dtype = registry.get_op("Ger").reference(sample(input), sample(vec2)).dtype
    if np.dtype(np.uint64) in (dtype, input.dtype, vec2.dtype):
        return None
    n, m = input.shape[0], vec2.shape[0]
    return _launch(MULTIPLY, dtype, (n, m), [input.reshape(n, 1), vec2.reshape(1, m)],
                   dtype.kind == "f")


# -- the elementwise recipes on integer and bool tensors ------------------------
def _fold(op: int) -> Callable:
    """A recipe's integer form: ``op`` folded left over its values, an
    absent one (None: Clamp's bound) skipped."""
    def form(step, values, params):
        present = [v for v in values if v is not None]
        return functools.reduce(lambda a, b: step(op, a, b), present)
    return form


def _on_itself(op: int) -> Callable:
    """The integer form of a unary recipe: ``op`` of the value and itself
    (x * x, x | x: x)."""
    return lambda step, values, params: step(op, values[0], values[0])


def _clamp(step, values, params):
    """min(max(x, low), high), absent bounds skipped (as CLAMP)."""
    x, low, high = values
    if low is not None and high is not None:
        bounded = step(FMAX, x, low)
        x = step(MINIMUM, bounded, high)
        device.release(bounded)     # (made here: no one else reads it)
        return x
    return step(FMAX, x, low) if high is None else step(MINIMUM, x, high)


def _divide(step, values, params):
    """Div's: true division into a float result (integers into float32),
    toward zero into an integer one (RealDiv: x / 0 saturates)."""
    return step(TRUE_DIV if step.floats else TRUNC_DIV, *values)


def _squared_difference(step, values, params):
    difference = step(SUBTRACT, *values)
    square = step(MULTIPLY, difference, difference)
    device.release(difference)      # (made here: no one else reads it)
    return square


def _addcmul(step, values, params):
    """input + value * tensor1 * tensor2, each product wrapping."""
    a, t1, t2, value = values
    scaled = step(MULTIPLY, value, t1)
    product = step(MULTIPLY, scaled, t2)
    result = step(ADD, a, product)
    device.release(scaled)          # (made here: no one else reads them)
    device.release(product)
    return result


def _scaled(op: int) -> Callable:
    """AddExt's and SubExt's integer form: a op alpha * b (alpha an
    integer: the reference refuses a float one)."""
    def form(step, values, params):
        a, b = values
        if params[0] == 1:
            return step(op, a, b)
        scaled = step(MULTIPLY, b, device.to_device(np.asarray(params[0], b.dtype)))
        result = step(op, a, scaled)
        device.release(scaled)      # (made here: no one else reads it)
        return result
    return form


# Recipe -> its integer form: form(step, values, params), ``step`` a _Steps.
# The recipes whose NumPy integer semantics (wrapping) these codes follow;
# the rest decline integers (their references compute in float64 and
# truncate, or round; see recipe_kernel).
INTEGER_FORMS = {
    binary_recipe(OP_ADD): _fold(ADD), binary_recipe(OP_SUB): _fold(SUBTRACT),
    binary_recipe(OP_MUL): _fold(MULTIPLY), binary_recipe(OP_MAX): _fold(FMAX),
    binary_recipe(OP_MIN): _fold(MINIMUM), binary_recipe(OP_DIV): _divide,
    binary_recipe(OP_POW): _fold(POWER),
    unary_recipe(OP_NEG): _on_itself(NEGATIVE),
    unary_recipe(OP_ABS): _on_itself(ABSOLUTE),
    unary_recipe(OP_SQUARE): _on_itself(MULTIPLY),
    unary_recipe(OP_SIGN): _on_itself(SIGN),
    unary_recipe(OP_RELU): _on_itself(RELU), unary_recipe(OP_TRUNC): _on_itself(OR),
    ROUND: _on_itself(OR), NAN_TO_NUM: _on_itself(OR),    # (integers unchanged)
    ADDCMUL: _addcmul, CLAMP: _clamp, SQUARED_DIFFERENCE: _squared_difference,
    ADD_EXT: _scaled(ADD), SUB_EXT: _scaled(SUBTRACT)}
# Forms whose result may be a float (Div of integers: float32).
FLOAT_FORMS = frozenset({binary_recipe(OP_DIV)})


class _Steps:
    """``steps(op, a, b)``: op code ``op`` of device arrays a and b
    broadcast, into ``dtype`` (by the float kernel for a float dtype)."""

    def __init__(self, dtype: np.dtype):
        self.dtype, self.floats = dtype, dtype.kind == "f"

    def __call__(self, op: int, a, b):
        shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
        return _launch(op, self.dtype, shape, [a, b], self.floats)


def recipe_kernel(op) -> Callable | None:
    """The cuda kernel of recipe op ``op`` for integer and bool tensors
    (None where its recipe has no integer form). The result's dtype, and
    the reference's refusals (Sub of bools, a float alpha), come from the
    reference run on one-element samples; Python numbers are converted to
    that dtype as ``binary`` converts them. It declines (None) a float
    result but for FLOAT_FORMS, uint64 and shapes that do not broadcast."""
    form = INTEGER_FORMS.get(op.recipe)
    if form is None:
        return None
    reference, n_values = op.reference, op.recipe.values

    def run(*args):
        dtype = reference(*map(sample, args)).dtype
        floats = dtype.kind == "f"
        if floats and op.recipe not in FLOAT_FORMS or dtype.kind not in "biuf" \
                or dtype == np.uint64:
            return None
        values = [v if v is None or device.is_device_array(v)
                  else device.to_device(np.asarray(v).astype(dtype))
                  for v in args[:n_values]]
        if any(v is not None and v.dtype == np.uint64 for v in values):
            return None
        try:
            return form(_Steps(dtype), values, args[n_values:])
        except ValueError:          # shapes that do not broadcast
            return None
    return run


BINARY = {"BitwiseAnd": AND, "BitwiseAndScalar": AND, "BitwiseAndTensor": AND,
          "BitwiseOr": OR, "BitwiseOrScalar": OR, "BitwiseOrTensor": OR,
          "BitwiseXor": XOR, "BitwiseXorScalar": XOR, "BitwiseXorTensor": XOR,
          "LeftShift": LEFT_SHIFT, "RightShift": RIGHT_SHIFT, "FloorDiv": FLOOR_DIV,
          "FloorMod": FLOOR_MOD, "RemainderTensorTensor": FLOOR_MOD,
          "RemainderTensorScalar": FLOOR_MOD, "RemainderScalarTensor": FLOOR_MOD,
          "Mod": TRUNC_MOD, "FmodScalar": TRUNC_MOD, "FmodTensor": TRUNC_MOD,
          "Gcd": GCD, "Lcm": LCM, "Heaviside": HEAVISIDE,
          "TruncateDiv": TRUNC_DIV, "TruncateMod": TRUNC_MOD, "MulNoNan": MUL_NO_NAN,
          "Xdivy": X_DIV_Y, "Fmax": FMAX}
KERNELS = {name: binary_kernel(name, op) for name, op in BINARY.items()}
KERNELS.update({"Invert": invert, "DivMod": div_mod, "IsClose": is_close,
                "MaskedFill": masked_fill, "Ger": ger, "AddN": add_n,
                "SequenceAddN": add_n, "PopulationCount": population_count})
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"integer binary, {a} and {b} to {out}", _integer_binary,
        f"void({a}[::1], {b}[::1], int64[:, ::1], int64, int64, int64, {out}[::1])")
       for a, b, out in [("int8", "int8", "int8"), ("int64", "int32", "int64"),
                         ("boolean", "boolean", "boolean"), ("uint8", "int8", "int16")]]
PTX += [(f"float binary, {a} and {b} to {out}", _float_binary,
         f"void({a}[::1], {b}[::1], int64[:, ::1], int64, float64, float64, boolean,"
        f" {out}[::1])")
        for a, b, out in [("float32", "float32", "float32"),
                          ("float64", "int32", "float64"), ("int8", "int8", "boolean"),
                          ("float32", "float32", "boolean")]]
PTX += [(f"masked fill, {dtype}", _masked,
         f"void({dtype}[::1], boolean[::1], {dtype}, int64[:, ::1], {dtype}[::1])")
        for dtype in ("float32", "int64")]
