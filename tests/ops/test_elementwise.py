"""Elementwise arithmetic, comparisons, Select and Cast.

Expected values come from Python scalar arithmetic (floats in float64,
integers as Python ints wrapped to the result type); dtype rules and edge
values were checked against MindSpore 2.7.1 (CPU) and are spelled out here.
"""
import math

import numpy as np
import pytest

FLOATS = [np.float16, np.float32, np.float64]
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32]
SHAPES = [((), ()), ((3,), ()), ((2, 3), (3,)), ((2, 1, 4), (3, 1)),
          ((0, 3), (3,)), ((2, 0), (1,))]


def wrap(value: int, dtype) -> int:
    """Python int -> two's-complement value of ``dtype``."""
    info = np.iinfo(dtype)
    return (value - int(info.min)) % (int(info.max) - int(info.min) + 1) \
        + int(info.min)


def reference(f, a, b, dtype):
    """f over Python scalars of the broadcast operands, as ``dtype``."""
    a_b, b_b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    values = [f(x.item(), y.item()) for x, y in zip(a_b.ravel(), b_b.ravel())]
    if np.dtype(dtype).kind in "iu":
        values = [wrap(int(v), dtype) for v in values]
        return np.array(values, dtype=dtype).reshape(a_b.shape)
    return np.array(values, dtype=np.float64).reshape(a_b.shape)


def nan_max(x, y):
    return math.nan if math.isnan(x) or math.isnan(y) else max(x, y)


def nan_min(x, y):
    return math.nan if math.isnan(x) or math.isnan(y) else min(x, y)


ARITH = {"Sub": lambda x, y: x - y, "Mul": lambda x, y: x * y,
         "Muls": lambda x, y: x * y, "Maximum": nan_max, "Minimum": nan_min}


def sample(rng, shape, dtype):
    if np.dtype(dtype).kind == "f":
        return (rng.standard_normal(shape) * 8).astype(dtype)
    info = np.iinfo(dtype)
    lo, hi = max(int(info.min), -300), min(int(info.max), 300)
    return rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)


@pytest.mark.parametrize("op", sorted(ARITH))
@pytest.mark.parametrize("dtype", FLOATS + INTS)
@pytest.mark.parametrize("shapes", SHAPES)
def test_binary_arithmetic(call, close, rng, op, dtype, shapes):
    a, b = sample(rng, shapes[0], dtype), sample(rng, shapes[1], dtype)
    close(call(op, a, b), reference(ARITH[op], a, b, dtype), dtype)


@pytest.mark.parametrize("op", ["Div", "RealDiv"])
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shapes", SHAPES)
def test_float_division(call, close, rng, op, dtype, shapes):
    a, b = sample(rng, shapes[0], dtype), sample(rng, shapes[1], dtype)
    close(call(op, a, b), reference(lambda x, y: x / y, a, b, dtype), dtype)


@pytest.mark.parametrize("dtype", FLOATS)
def test_division_by_zero_is_ieee(call, close, dtype):
    a = np.array([1, -1, 0], dtype)
    for op in ("Div", "RealDiv"):
        close(call(op, a, np.zeros(3, dtype)), [math.inf, -math.inf, math.nan],
              dtype, equal_nan=True)


def test_div_integers_give_float32(call, close):
    # MindSpore: int32 [1, -2, 3, 7] / 2 -> float32 [0.5, -1, 1.5, 3.5].
    x = np.array([1, -2, 3, 7], np.int32)
    close(call("Div", x, np.full(4, 2, np.int32)), [0.5, -1, 1.5, 3.5],
          np.float32)
    close(call("Div", x, 2), [0.5, -1, 1.5, 3.5], np.float32)
    close(call("Div", x, np.zeros(4, np.int32)),
          [math.inf, -math.inf, math.inf, math.inf], np.float32)
    close(call("Div", np.array([True, False]), np.array([True, False])),
          [1, math.nan], np.float32, equal_nan=True)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
def test_real_div_integers_truncate_and_saturate(call, close, dtype):
    # MindSpore 2.7.1 CPU: C division; x / 0 saturates, 0 / 0 = 0.
    x = np.array([-3, 3, -7, 7, -3, 3, 0], dtype)
    y = np.array([2, -2, 2, 2, 0, 0, 0], dtype)
    info = np.iinfo(dtype)
    close(call("RealDiv", x, y),
          np.array([-1, -1, -3, 3, info.min, info.max, 0], dtype))
    close(call("RealDiv", x[:4], 2), np.array([-1, 1, -3, 3], dtype))


def test_real_div_unsigned_and_rejects_bool(call, close):
    close(call("RealDiv", np.array([1, 2, 3, 200], np.uint8), 2),
          np.array([0, 1, 1, 100], np.uint8))
    with pytest.raises(TypeError):
        call("RealDiv", np.array([True]), np.array([True]))


@pytest.mark.parametrize("op,a,b,dtype", [
    # (op, first operand, second operand, MindSpore 2.7.1 result dtype)
    ("Sub", np.int32, 2.5, np.float32),
    ("Sub", np.int32, np.float16, np.float16),
    ("Sub", np.float32, np.float64, np.float64),
    ("Sub", np.uint8, np.int8, np.int16),
    ("Sub", np.int32, True, np.int32),
    ("Mul", np.int64, np.float16, np.float16),
    ("Mul", np.bool_, np.float32, np.float32),
    ("Mul", np.bool_, np.bool_, np.bool_),
    ("Muls", np.float16, 2.5, np.float16),
    ("Muls", np.int32, 2, np.int32),
    ("Muls", np.int32, 2.5, np.float32),
    ("Muls", np.bool_, 2, np.int64),
    ("Maximum", np.int32, np.float32, np.float32),
    ("Maximum", np.int32, 3.5, np.float32),
    ("Maximum", np.bool_, np.bool_, np.bool_),
    ("Div", np.uint8, np.uint8, np.float32),
    ("Div", np.int64, np.int64, np.float32),
    ("Div", np.float16, 2, np.float16),
    ("Div", np.float64, np.float64, np.float64),
    ("RealDiv", np.int32, np.int32, np.int32),
    ("RealDiv", np.int32, np.float32, np.float32),
    ("Pow", np.float32, np.float64, np.float64),
    ("Pow", np.float16, np.float32, np.float32),
    ("Pow", np.int32, np.int64, np.int64),
    ("Pow", np.int32, 2.0, np.float32),
    ("Pow", np.float32, 2, np.float32),
    ("Add", np.float16, "bfloat16", np.float32),    # as MindSpore 2.7.1's Add
    ("Mul", "bfloat16", np.float16, np.float32),
    ("Add", "bfloat16", np.float32, np.float32),
])
def test_result_dtypes(call, op, a, b, dtype):
    def operand(kind, shape):
        if kind == "bfloat16":
            return np.ones(shape, pytest.importorskip("ml_dtypes").bfloat16)
        if isinstance(kind, type) and issubclass(kind, np.generic):
            return np.ones(shape, kind)
        return kind
    got = call(op, operand(a, (3,)), operand(b, ()))
    assert got.dtype == dtype and got.shape == (3,)


def test_integer_scalars_wrap_into_the_tensor_dtype(call, close):
    # MindSpore: uint8 + 300 wraps; uint8 > -1 compares against 255.
    x = np.array([1, 2, 3, 200], np.uint8)
    close(call("Sub", x, 300), np.array([213, 214, 215, 156], np.uint8))
    close(call("Greater", x, -1), np.zeros(4, bool))
    close(call("Greater", x, 300), np.array([False, False, False, True]))


def test_maximum_minimum_propagate_nan(call, close):
    a = np.array([np.nan, 1, 2, np.nan], np.float32)
    b = np.array([1, np.nan, 3, np.nan], np.float32)
    close(call("Maximum", a, b), [np.nan, np.nan, 3, np.nan], np.float32,
          equal_nan=True)
    close(call("Minimum", a, b), [np.nan, np.nan, 2, np.nan], np.float32,
          equal_nan=True)


# --- Pow ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("exponent", [2.0, 0.5, -1.0, 3.0])
def test_pow_float_zero_d_exponent(call, close, rng, dtype, exponent):
    x = np.abs(sample(rng, (2, 3), dtype)) + dtype(0.5)
    e = np.array(exponent, dtype)
    close(call("Pow", x, e), reference(math.pow, x, e, dtype), dtype)


def test_pow_float_special_values(call, close):
    got = call("Pow", np.array([1.5, -2, 3, 0], np.float32),
               np.array([2, 3, 0.5, -1], np.float32))
    close(got, [2.25, -8, math.sqrt(3), math.inf], np.float32)
    assert np.isnan(call("Pow", np.array([-2.0]), np.array(0.5))).all()


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8])
def test_pow_integers(call, close, dtype):
    x = np.array([0, 1, 2, 3, 5, 7], dtype)
    close(call("Pow", x, np.array(3, dtype)),
          np.array([wrap(int(v) ** 3, dtype) for v in x], dtype))


def test_pow_integer_negative_exponent(call, close):
    # MindSpore 2.7.1 CPU values.
    x = np.array([0, -1, 1, 2], np.int32)
    close(call("Pow", x, np.array(-1, np.int32)),
          np.array([-2 ** 31, -1, 1, 0], np.int32))
    close(call("Pow", x, np.array(-2, np.int32)),
          np.array([-2 ** 31, 1, 1, 0], np.int32))


# --- Unary -------------------------------------------------------------------

UNARY_FLOAT = {"Exp": math.exp, "Sqrt": math.sqrt, "Neg": lambda v: -v,
               "Abs": abs, "Square": lambda v: v * v}


@pytest.mark.parametrize("op", sorted(UNARY_FLOAT))
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(), (0,), (5,), (2, 3, 2)])
def test_unary_float(call, close, rng, op, dtype, shape):
    x = sample(rng, shape, dtype)
    if op in ("Sqrt",):
        x = np.abs(x)
    if op == "Exp":
        x = x / 4
    expected = np.vectorize(UNARY_FLOAT[op], otypes=[float])(
        x.astype(np.float64)) if x.size else x.astype(np.float64)
    close(call(op, x), expected, dtype)


@pytest.mark.parametrize("op", ["Neg", "Abs", "Square"])
@pytest.mark.parametrize("dtype", INTS)
def test_unary_integers_wrap(call, close, rng, op, dtype):
    x = sample(rng, (4, 3), dtype)
    f = {"Neg": lambda v: -v, "Abs": abs, "Square": lambda v: v * v}[op]
    close(call(op, x), np.array([wrap(f(int(v)), dtype) for v in x.ravel()],
                                dtype).reshape(x.shape))


def test_unary_edge_values(call, close):
    close(call("Neg", np.array([-128, 1], np.int8)),
          np.array([-128, -1], np.int8))
    close(call("Abs", np.array([-128, 1], np.int8)),
          np.array([-128, 1], np.int8))
    close(call("Sqrt", np.array([-1.0, 4.0], np.float32)), [math.nan, 2],
          np.float32, equal_nan=True)
    close(call("Exp", np.array([100.0], np.float32)), [math.inf], np.float32)


@pytest.mark.parametrize("op,f", [("Sqrt", math.sqrt), ("Exp", math.exp)])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.bool_])
def test_float_math_on_integers_gives_float32(call, close, op, f, dtype):
    x = np.array([1, 0, 3, 4]).astype(dtype)
    close(call(op, x), [f(float(v)) for v in x], np.float32)


# --- Comparisons and Select --------------------------------------------------

COMPARE = {"Greater": lambda x, y: x > y, "Less": lambda x, y: x < y,
           "Equal": lambda x, y: x == y}


@pytest.mark.parametrize("op", sorted(COMPARE))
@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.bool_])
@pytest.mark.parametrize("shapes", SHAPES)
def test_comparisons(call, close, rng, op, dtype, shapes):
    def values(shape):
        if dtype == np.bool_:
            return rng.integers(0, 2, shape).astype(bool)
        return sample(rng, shape, dtype) // 4  # make ties likely
    a, b = values(shapes[0]), values(shapes[1])
    expected = reference(COMPARE[op], a, b, np.float64).astype(bool)
    close(call(op, a, b), expected, np.bool_)


def test_comparisons_with_scalars_and_nan(call, close):
    x = np.array([1, -2, 3, 7], np.int32)
    close(call("Greater", x, 2.5), np.array([False, False, True, True]))
    close(call("Equal", x, 1.0), np.array([True, False, False, False]))
    close(call("Less", 2, x), np.array([False, False, True, True]))
    nan = np.array([np.nan], np.float32)
    close(call("Equal", nan, nan), np.array([False]))


@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_select_broadcasts(call, close, rng, dtype):
    cond = np.array([True, False, True])
    a, b = sample(rng, (2, 3), dtype), sample(rng, (3,), dtype)
    expected = np.array([[a[i, j] if cond[j] else b[j] for j in range(3)]
                         for i in range(2)], dtype)
    close(call("Select", cond, a, b), expected)


def test_select_promotes_like_arithmetic(call, close):
    cond = np.array([True, False, True])
    close(call("Select", cond, np.array([1, 2, 3], np.float32), 0.5),
          [1, 0.5, 3], np.float32)
    close(call("Select", cond, np.ones(3, np.float32), np.zeros(3, np.int32)),
          [1, 0, 1], np.float32)


# --- Cast --------------------------------------------------------------------

ALL_CAST = FLOATS + INTS + [np.bool_]


@pytest.mark.parametrize("src", ALL_CAST)
@pytest.mark.parametrize("dst", ALL_CAST)
def test_cast_exact_values(call, close, src, dst):
    x = np.array([0, 1, 5, 100]).astype(src)
    expected = np.array([bool(v) if dst == np.bool_ else int(v)
                         for v in x.tolist()]).astype(dst)
    close(call("Cast", x, np.dtype(dst)), expected, dst)


@pytest.mark.parametrize("spelling", [43, np.float32, np.dtype("float32"),
                                      "float32"])
def test_cast_dtype_spellings(call, close, spelling):
    close(call("Cast", np.array([1, 2], np.int64), spelling), [1, 2],
          np.float32)


NAN, INF = math.nan, math.inf


@pytest.mark.parametrize("dst,values,expected", [
    # MindSpore 2.7.1 CPU (float32 source).
    (np.uint8, [1.7, -1.7, 300, 255.9, -300, NAN, 1e10],
     [1, 255, 44, 255, 212, 0, 0]),
    (np.int8, [1.7, -1.7, 300, 200, -300, NAN, 1e10],
     [1, -1, 44, -56, -44, 0, 0]),
    (np.int16, [1.7, -1.7, 40000, 1e10, NAN], [1, -1, -25536, 0, 0]),
    (np.int32, [1.7, -1.7, NAN, 1e10, -1e10, INF],
     [1, -1, -2 ** 31, -2 ** 31, -2 ** 31, -2 ** 31]),
    (np.uint32, [1.7, -1.7, 5e9, 1e10, NAN],
     [1, 4294967295, 705032704, 1410065408, 0]),
    (np.int64, [1.7, -1.7, 1e30], [1, -1, -2 ** 63]),
    (np.bool_, [0.0, -0.0, 0.1, NAN], [False, False, True, True]),
])
def test_cast_float_to_int_like_mindspore(call, close, dst, values, expected):
    got = call("Cast", np.array(values, np.float32), np.dtype(dst))
    close(got, np.array(expected, dst))


def test_cast_narrowing(call, close):
    close(call("Cast", np.array([300, -200], np.int32), 32),
          np.array([44, 56], np.int8))
    close(call("Cast", np.array([1e6, 1.0001]), 42), [INF, 1], np.float16)
    close(call("Cast", np.array([0, 2, -1], np.int32), 30),
          np.array([False, True, True]))
    close(call("Cast", np.array(2.5, np.float64), 35), np.array(2, np.int64))
