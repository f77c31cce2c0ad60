"""Binary and ternary elementwise math against Python scalar arithmetic
(float64 math-module floats, exact Python ints wrapped to the dtype), over
broadcasting shapes with rank 0 and 0-size dims and every supported dtype;
integer division by zero, promotion with Python scalars and the argument
variants as MindSpore 2.7.1 CPU computes them."""
import math

import numpy as np
import pytest

from math_helpers import (BINARY_SHAPES, FLOATS, INTS, SIGNED, apply, sample,
                          wrap)
from tolerances import tolerance


def floor_div(x, y):
    if isinstance(x, int):
        return x // y
    return math.floor(x / y)


def trunc_div(x, y):
    if isinstance(x, int):
        return abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
    return math.trunc(x / y)


def floor_mod(x, y):
    return x - floor_div(x, y) * y if isinstance(x, int) else x - math.floor(x / y) * y


def trunc_mod(x, y):
    return math.fmod(x, y) if isinstance(x, float) else x - trunc_div(x, y) * y


DIVISIONS = {"FloorDiv": floor_div, "FloorMod": floor_mod,
             "RemainderTensorTensor": floor_mod, "Mod": trunc_mod,
             "FmodTensor": trunc_mod, "TruncateDiv": trunc_div, "TruncateMod": trunc_mod}


def divisor(rng, shape, dtype):
    """Nonzero divisors of both signs (positive for unsigned dtypes)."""
    y = sample(rng, shape, dtype, 1, 9) if np.dtype(dtype).kind != "f" \
        else sample(rng, shape, dtype, 0.5, 4.0)
    if np.dtype(dtype).kind != "u":
        y = np.where(sample(rng, shape, np.bool_), y, -y).astype(dtype)
    return y


@pytest.mark.parametrize("op", sorted(DIVISIONS))
@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_division_family(call, close, rng, op, dtype):
    for xs, ys in BINARY_SHAPES:
        x, y = sample(rng, xs, dtype, -50, 50), divisor(rng, ys, dtype)
        expected = apply(DIVISIONS[op], x, y,
                         out=dtype if np.dtype(dtype).kind in "iu" else np.float64)
        close(call(op, x, y), expected, dtype, **tolerance(op, dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_modulo_signs(call, close, dtype):
    x = np.array([5.5, -5.5, 5.5, -5.5], dtype)
    y = np.array([2, 2, -2, -2], dtype)
    close(call("FloorMod", x, y), [1.5, 0.5, -0.5, -1.5], dtype)
    close(call("Mod", x, y), [1.5, -1.5, 1.5, -1.5], dtype)
    close(call("FloorDiv", x, y), [2, -3, -3, 2], dtype)
    close(call("DivMod", x, y, 1), [2, -2, -2, 2], dtype)


def test_integer_division_by_zero_like_mindspore(call, close):
    # MindSpore 2.7.1 CPU: x // 0 saturates, x mod 0 is the dtype's minimum.
    x, zero = np.array([-7, 7, 0], np.int32), np.zeros(3, np.int32)
    info = np.iinfo(np.int32)
    close(call("FloorDiv", x, zero), np.array([info.min, info.max, 0], np.int32))
    close(call("FloorMod", x, zero), np.full(3, info.min, np.int32))
    close(call("DivMod", x, zero, "trunc"), np.array([info.min, info.max, 0], np.int32))
    close(call("FloorDiv", np.array([1.0, -1.0, 0.0], np.float32), np.zeros(3, np.float32)),
          [math.inf, -math.inf, math.nan], np.float32, equal_nan=True)
    close(call("FloorMod", np.array([1.0], np.float32), np.zeros(1, np.float32)),
          [math.nan], np.float32, equal_nan=True)


@pytest.mark.parametrize("mode,code,f", [("trunc", 1, trunc_div), ("floor", 2, floor_div)])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int8, np.int32, np.int64])
def test_div_mod_rounding_modes(call, close, rng, mode, code, f, dtype):
    x, y = sample(rng, (3, 4), dtype, -60, 60), divisor(rng, (4,), dtype)
    out = dtype if np.dtype(dtype).kind in "iu" else np.float64
    for spelling in (mode, code, mode.upper()):
        close(call("DivMod", x, y, spelling), apply(f, x, y, out=out), dtype,
              **tolerance("DivMod", dtype))


def test_div_mod_without_mode_is_true_division(call, close):
    close(call("DivMod", np.array([-5, 3], np.int32), np.array([2, 2], np.int32)),
          [-2.5, 1.5], np.float32)
    with pytest.raises(ValueError):
        call("DivMod", np.ones(2, np.float32), np.ones(2, np.float32), 3)


@pytest.mark.parametrize("op,a,b,dtype", [
    # (op, first operand, second operand, result dtype: MindSpore 2.7.1)
    ("RemainderTensorScalar", np.float32, 2, np.float32),
    ("RemainderTensorScalar", np.int32, 2, np.int32),
    ("RemainderTensorScalar", np.int32, 2.5, np.float32),
    ("RemainderScalarTensor", 2, np.float16, np.float16),
    ("RemainderScalarTensor", 2.5, np.int64, np.float32),
    ("FloorDiv", np.int8, np.int32, np.int32),
    ("FloorDiv", np.int32, np.float16, np.float16),
    ("FmodScalar", np.float32, 1.5, np.float32),
    ("PowTensorScalar", np.int32, 2, np.int32),
    ("PowTensorScalar", np.int8, 2.0, np.float32),
    ("PowScalarTensor", 2.0, np.int32, np.float32),
    ("PowScalarTensor", 2, np.float16, np.float16),
    ("AddExt", np.int32, np.float32, np.float32),
    ("AddExt", np.bool_, np.bool_, np.bool_),
    ("SubExt", np.uint8, np.int8, np.int16),
    ("BitwiseAndScalar", np.uint8, 3, np.uint8),
    ("BitwiseOrTensor", np.int8, np.int16, np.int16),
    ("Atan2", np.int32, np.int32, np.float32),
    ("Xlogy", np.bool_, np.float16, np.float16),
])
def test_result_dtypes(call, op, a, b, dtype):
    def operand(kind, shape):
        return np.ones(shape, kind) if isinstance(kind, type) else kind
    x, y = operand(a, (3,)), operand(b, (2, 1))
    got = call(op, x, y)
    assert got.dtype == dtype, got.dtype
    assert got.shape == np.broadcast_shapes(np.shape(x), np.shape(y))


@pytest.mark.parametrize("op", ["RemainderTensorScalar", "RemainderScalarTensor"])
def test_remainder_with_python_scalars(call, close, rng, op):
    x = sample(rng, (2, 3), np.float32, 0.5, 4.0)
    if op == "RemainderTensorScalar":
        close(call(op, x, 1.5), apply(lambda v: floor_mod(v, 1.5), x), np.float32)
    else:
        close(call(op, 5, x), apply(lambda v: floor_mod(5.0, v), x), np.float32)


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_add_ext_sub_ext_alpha(call, close, rng, dtype):
    for xs, ys in BINARY_SHAPES:
        x, y = sample(rng, xs, dtype, -50, 50), sample(rng, ys, dtype, -50, 50)
        out = dtype if np.dtype(dtype).kind in "iu" else np.float64
        tol = tolerance("AddExt", dtype)
        close(call("AddExt", x, y, 3), apply(lambda a, b: a + 3 * b, x, y, out=out), dtype,
              **tol)
        close(call("SubExt", x, y, 2), apply(lambda a, b: a - 2 * b, x, y, out=out), dtype,
              **tol)
        close(call("AddExt", x, y), apply(lambda a, b: a + b, x, y, out=out), dtype, **tol)


def test_alpha_rules(call, close):
    x = np.array([1.0, 2.0], np.float32)
    close(call("SubExt", x, x, 0.5), [0.5, 1.0], np.float32)
    close(call("AddExt", np.array([True, False]), np.array([True, True])),
          np.array([True, True]))
    with pytest.raises(TypeError):
        call("AddExt", np.array([1, 2], np.int32), np.array([1, 2], np.int32), 0.5)
    with pytest.raises(TypeError):
        call("SubExt", np.array([True]), np.array([True]))


BITWISE = {"BitwiseAnd": lambda a, b: a & b, "BitwiseOr": lambda a, b: a | b,
           "BitwiseXor": lambda a, b: a ^ b}


@pytest.mark.parametrize("op", sorted(BITWISE))
@pytest.mark.parametrize("suffix", ["", "Tensor", "Scalar"])
@pytest.mark.parametrize("dtype", INTS + [np.bool_])
def test_bitwise(call, close, rng, op, suffix, dtype):
    f = BITWISE[op]
    x = sample(rng, (2, 3), dtype, -128, 127)
    y = 5 if suffix == "Scalar" and dtype != np.bool_ else sample(rng, (3,), dtype, -128, 127)
    out = dtype if dtype != np.bool_ else np.bool_
    expected = apply(f, x, y, out=out) if dtype != np.bool_ else \
        apply(lambda a, b: bool(f(a, b)), x, y, out=bool)
    close(call(op + suffix, x, y), expected)


def test_bitwise_rejects_floats(call):
    with pytest.raises(TypeError):
        call("BitwiseAnd", np.ones(2, np.float32), np.ones(2, np.float32))


@pytest.mark.parametrize("dtype", SIGNED + [np.uint8])
def test_shifts(call, close, rng, dtype):
    bits = np.dtype(dtype).itemsize * 8
    x = sample(rng, (3, 4), dtype, -1000, 1000)
    s = sample(rng, (4,), dtype, 0, bits - 1)
    close(call("LeftShift", x, s), apply(lambda a, b: a << b, x, s, out=dtype))
    close(call("RightShift", x, s), apply(lambda a, b: a >> b, x, s, out=dtype))


def test_shift_edges_like_mindspore(call, close):
    close(call("LeftShift", np.array([1, -1, 3], np.int8), np.array([7, 1, 9], np.int8)),
          np.array([-128, -2, 0], np.int8))
    close(call("RightShift", np.array([-128, -1, 64], np.int8), np.array([3, 1, 9], np.int8)),
          np.array([-16, -1, 0], np.int8))


FLOAT_BINARY = {"Atan2": math.atan2, "Atan2Ext": math.atan2, "Hypot": math.hypot,
                "LogAddExp": lambda a, b: max(a, b) + math.log1p(math.exp(-abs(a - b))),
                "Xlogy": lambda a, b: a * math.log(b),
                "DivNoNan": lambda a, b: a / b if b != 0 else 0.0,
                "Xdivy": lambda a, b: a / b if a != 0 else 0.0,
                "MulNoNan": lambda a, b: a * b if b != 0 else 0.0,
                "SquaredDifference": lambda a, b: (a - b) ** 2, "Fmax": max}


@pytest.mark.parametrize("op", sorted(FLOAT_BINARY))
@pytest.mark.parametrize("dtype", FLOATS)
def test_float_binary(call, close, rng, op, dtype):
    for xs, ys in BINARY_SHAPES:
        x = sample(rng, xs, dtype)
        y = sample(rng, ys, dtype, 0.1, 4.0) if op == "Xlogy" else sample(rng, ys, dtype)
        close(call(op, x, y), apply(FLOAT_BINARY[op], x, y), dtype)


def test_div_no_nan_gives_zero_for_a_zero_divisor(call, close):
    close(call("DivNoNan", np.array([1.0, 0.0, -2.0, np.inf, np.nan, 3.0], np.float32),
               np.array([0.0, 0.0, 0.0, 0.0, 0.0, np.nan], np.float32)),
          [0.0, 0.0, 0.0, 0.0, 0.0, math.nan], np.float32, equal_nan=True)


def test_add_v2_is_add(call, close):
    close(call("AddV2", np.array([[1, -2]], np.int32), np.array([[3, 4]], np.int32)),
          np.array([[4, 2]], np.int32))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
def test_gcd_lcm_heaviside(call, close, rng, dtype):
    a, b = sample(rng, (4, 5), dtype, -10, 10), sample(rng, (5,), dtype, -10, 10)
    a[0, 0] = b[0] = 0
    close(call("Gcd", a, b), np.array([[math.gcd(int(x), int(y)) for x, y in zip(row, b)]
                                       for row in a], dtype))
    close(call("Lcm", a, b), np.array([[abs(int(x) * int(y)) // (math.gcd(int(x), int(y))
                                                                 or 1)
                                        for x, y in zip(row, b)] for row in a], dtype))
    step = call("Heaviside", a, b)
    close(step, np.where(a < 0, 0, np.where(a > 0, 1, np.broadcast_to(b, a.shape)))
          .astype(dtype))
    with pytest.raises(TypeError, match=r"Gcd: operands must be integer tensors, got "
                                        r"float32"):
        call("Gcd", a.astype(np.float32), b.astype(np.float32))


def test_xlogy_is_computed_plainly(call, close):
    # MindSpore 2.7.1 CPU: 0 * ln(0) = NaN (PyTorch would give 0).
    close(call("Xlogy", np.array([0.0, 0.0, 1.0, 2.0], np.float32),
               np.array([0.0, math.nan, 0.0, -1.0], np.float32)),
          [math.nan, math.nan, -math.inf, math.nan], np.float32, equal_nan=True)


@pytest.mark.parametrize("op", ["Lerp", "LerpScalar"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_lerp(call, close, rng, op, dtype):
    for xs, ys in BINARY_SHAPES:
        x, end = sample(rng, xs, dtype), sample(rng, ys, dtype)
        weight = 0.3 if op == "LerpScalar" else sample(rng, ys, dtype, 0.0, 1.0)
        close(call(op, x, end, weight), apply(lambda a, b, w: a + w * (b - a), x, end, weight),
              dtype)


@pytest.mark.parametrize("op", ["Addcmul", "AddcmulExt", "Addcdiv", "AddcdivExt"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_addc(call, close, rng, op, dtype):
    f = (lambda a, b, c, v: a + v * b * c) if "mul" in op else (lambda a, b, c, v: a + v * b / c)
    for xs, ys in BINARY_SHAPES:
        x, t1, t2 = sample(rng, xs, dtype), sample(rng, ys, dtype), \
            sample(rng, ys, dtype, 0.5, 3.0)
        value = 0.5 if op.endswith("Ext") else np.array(0.5, dtype)
        close(call(op, x, t1, t2, value), apply(f, x, t1, t2, 0.5), dtype)


def test_addcmul_integers_wrap(call, close):
    x = np.array([100, -100], np.int8)
    close(call("Addcmul", x, x, np.array([2, 2], np.int8), np.array(1, np.int8)),
          np.array([wrap(100 + 2 * 100, np.int8), wrap(-100 - 200, np.int8)], np.int8))


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_clamp(call, close, rng, dtype):
    kind = np.dtype(dtype).kind
    out = dtype if kind in "iu" else np.float64
    for xs, ys in BINARY_SHAPES:
        x = sample(rng, xs, dtype, -50, 50)
        low, high = sample(rng, ys, dtype, 0, 10), sample(rng, ys, dtype, 20, 40)
        clamp = (lambda v, lo, hi: min(max(v, lo), hi))
        close(call("ClampTensor", x, low, high), apply(clamp, x, low, high, out=out), dtype)
        close(call("ClampScalar", x, 5, 30), apply(lambda v: clamp(v, 5, 30), x, out=out), dtype)
        close(call("Hardtanh", x, 5, 30), apply(lambda v: clamp(v, 5, 30), x, out=out), dtype)
        close(call("ClampScalar", x, None, 7), apply(lambda v: min(v, 7), x, out=out), dtype)
        close(call("ClampTensor", x, low, None), apply(max, x, low, out=out), dtype)


def test_clamp_bounds_take_the_input_dtype(call, close):
    # MindSpore 2.7.1: int32 clamped to [0.5, 2.5] is clamped to [0, 2].
    x = np.arange(-2, 5, dtype=np.int32)
    close(call("ClampScalar", x, 0.5, 2.5), np.array([0, 0, 0, 1, 2, 2, 2], np.int32))
    close(call("ClampTensor", x, np.array(0.5, np.float32), None),
          np.array([0, 0, 0, 1, 2, 3, 4], np.int32))
    close(call("ClampScalar", np.array([1.0, 5.0], np.float32), 3.0, 2.0), [2, 2],
          np.float32)  # min > max: max wins


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int32, np.uint8])
def test_pow_with_python_scalars(call, close, rng, dtype):
    x = sample(rng, (2, 3), dtype, 0, 5)
    out = dtype if np.dtype(dtype).kind in "iu" else np.float64
    close(call("PowTensorScalar", x, 3), apply(lambda v: v ** 3, x, out=out), dtype)
    close(call("PowScalarTensor", 2, x), apply(lambda v: 2 ** v, x, out=out), dtype)
    close(call("PowTensorScalar", x, 0.5), apply(math.sqrt, x),
          dtype if np.dtype(dtype).kind == "f" else np.float32)
