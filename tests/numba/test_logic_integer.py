"""The fast paths of the comparison, logical, bitwise, integer-division,
select and cast ops (refinfer/ops/_kernels/logic.py) equal their NumPy
references: random shapes and broadcasts, every integer dtype where the op is integer
by nature, Python numbers beside tensors, x / 0, signed MIN / -1, shifts
past the width, NaN / inf / -0.0, and the inputs handed to the reference.

The compiled kernels cut outputs of 2**19 elements or more across the
worker threads, so a few of their cases are that large.
"""
import numpy as np
import pytest

from refinfer.registry import get_op

from kernel_check import FLOATS, assert_same, check, normal, rng

TESTED = {
    "Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual",
    "IsClose", "IsFinite", "IsInf", "IsNan", "IsNegInf",
    "LogicalAnd", "LogicalOr", "LogicalXor", "LogicalNot", "MaskedFill", "Select",
    "BitwiseAnd", "BitwiseAndScalar", "BitwiseAndTensor", "BitwiseOr", "BitwiseOrScalar",
    "BitwiseOrTensor", "BitwiseXor", "BitwiseXorScalar", "BitwiseXorTensor", "Invert",
    "LeftShift", "RightShift", "DivMod", "FloorDiv", "FloorMod", "FmodScalar", "FmodTensor",
    "Mod", "RemainderScalarTensor", "RemainderTensorScalar", "RemainderTensorTensor", "Cast",
    "TruncateDiv", "TruncateMod",
}
COMPARISONS = ("Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual")
LOGICAL = ("LogicalAnd", "LogicalOr", "LogicalXor")
BITWISE = ("BitwiseAnd", "BitwiseAndScalar", "BitwiseAndTensor", "BitwiseOr", "BitwiseOrScalar",
           "BitwiseOrTensor", "BitwiseXor", "BitwiseXorScalar", "BitwiseXorTensor")
FLOAT_TESTS = ("IsFinite", "IsInf", "IsNan", "IsNegInf")
FLOOR_MODULO = ("FloorMod", "RemainderTensorTensor", "RemainderTensorScalar",
                "RemainderScalarTensor")
TRUNC_MODULO = ("Mod", "FmodTensor", "FmodScalar", "TruncateMod")
DIVISIONS = ("FloorDiv", "TruncateDiv") + FLOOR_MODULO + TRUNC_MODULO
# Integer division compiles one signature per dtype: the narrow signed and
# unsigned types, both 64-bit ones and int32 (the others share their paths).
DIVISION_INTS = (np.int8, np.int32, np.int64, np.uint8, np.uint64)
ALL_INTS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
DTYPES = FLOATS + (np.float16, np.int32, np.int64, np.uint8, np.bool_)

BROADCASTS = [((3, 4, 5), (3, 4, 5)), ((2, 3, 300), (300,)), ((4, 600), (4, 1)),
              ((2, 3, 20, 20), (1, 3, 1, 1)), ((500,), ()), ((2, 1, 30), (1, 40, 1)),
              ((3, 1), (2, 3, 7)), ((), ()), ((7,), (1,)), ((0, 5), (5,)),
              ((2, 1, 3), (1, 4, 1)),           # both sides broadcast
              ((3, 4, 40, 128), (3, 1, 1, 128))]  # a mask beside scores: short rows
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 1e30, -7.0,
                    3.0])


def values(shape, dtype, low=-9, high=10):
    """Random values of ``dtype``: small integers (so ties happen), bools,
    or normal floats rounded to halves (ties too)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(low, info.min), min(high, info.max), shape, dtype=dtype,
                            endpoint=True)
    return (np.round(normal(shape, np.float64, scale=3.0) * 2) / 2).astype(dtype)


def check_bits(op, *args):
    """``check``, and float results also equal in the sign of their zeros
    (and of every other number; a NaN's sign means nothing)."""
    definition = get_op(op)
    try:
        expected = definition.reference(*args)
    except TypeError:
        check(op, *args)                       # the kernel must raise it too
        return
    got = definition.kernel("numba")(*args)
    assert_same(op, got, expected)
    if expected.dtype.kind == "f":
        number = ~np.isnan(expected)
        np.testing.assert_array_equal(np.signbit(got)[number], np.signbit(expected)[number],
                                      err_msg=op)


# -- comparisons, logical ops, float tests ------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shapes", BROADCASTS, ids=str)
def test_comparisons_and_logic(dtype, shapes):
    a, b = (values(s, dtype) for s in shapes)
    for op in COMPARISONS + LOGICAL:
        check(op, a, b)
        check(op, b, a)


@pytest.mark.parametrize("op", COMPARISONS + LOGICAL)
def test_comparisons_with_python_numbers_mixed_dtypes_and_nan(op):
    ints = values((5, 6), np.int32)
    floats = values((5, 6), np.float32)
    check(op, ints, 3)
    check(op, 2, ints)
    check(op, ints, 2.5)                       # float32 comparison
    check(op, values((4,), np.uint8), -1)      # wraps to 255
    check(op, ints, floats)
    check(op, floats, values((6,), np.float64))
    check(op, values((3,), np.bool_), True)
    check(op, 2, 3.0)
    check(op, SPECIAL, SPECIAL[::-1].copy())
    check(op, SPECIAL.astype(np.float32), np.float32(np.nan))


def test_logical_not():
    for dtype in DTYPES:
        check("LogicalNot", values((4, 5), dtype))
    check("LogicalNot", SPECIAL)
    check("LogicalNot", np.zeros((0, 3), np.float32))


@pytest.mark.parametrize("dtype", (np.float16, np.float32, np.float64, np.int32, np.bool_),
                         ids=lambda d: np.dtype(d).name)
def test_float_tests(dtype):
    with np.errstate(over="ignore", invalid="ignore"):   # 1e30 -> float16 inf; ints
        special = SPECIAL.astype(dtype)
    for op in FLOAT_TESTS:                      # integers: a constant, by the reference
        check(op, special)
        check(op, special.reshape(3, 4).T)
        check(op, special[:1].reshape(()))
        check(op, np.zeros((0, 2), dtype))


# -- IsClose ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", FLOATS + (np.float16, np.int32, np.bool_),
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shapes", BROADCASTS[:4] + BROADCASTS[6:], ids=str)
def test_is_close(dtype, shapes):
    a = values(shapes[0], dtype)
    b = a + (values(shapes[0], dtype) * 1e-6 if np.dtype(dtype).kind == "f" else 0)
    check("IsClose", a, values(shapes[1], dtype))
    if b.shape == np.broadcast_shapes(*shapes):
        check("IsClose", a, b)


def test_is_close_arguments_and_special_values():
    x = SPECIAL.reshape(-1, 1)
    y = SPECIAL.reshape(1, -1)
    for equal_nan in (False, True):
        for rtol, atol in ((1e-5, 1e-8), (0.0, 0.0), (0.5, 1.0), (1e-3, 0)):
            check("IsClose", x, y, rtol, atol, equal_nan)
            check("IsClose", x.astype(np.float32), y.astype(np.float32), rtol, atol, equal_nan)
    near = np.float32(1.0) + np.float32(3e-6) * np.arange(5, dtype=np.float32)
    check("IsClose", near, np.float32(1.0))    # rtol in float32, as NumPy
    check("IsClose", near, 1.0, 1e-6, 0.0)
    check("IsClose", values((3, 4), np.int32), 2)
    check("IsClose", values((600, 1000), np.float32), values((1000,), np.float32))


# -- bitwise ops, shifts, Invert ---------------------------------------------------------------
@pytest.mark.parametrize("dtype", ALL_INTS + (np.bool_,), ids=lambda d: np.dtype(d).name)
def test_bitwise(dtype):
    low, high = (0, 1) if dtype == np.bool_ else (np.iinfo(dtype).min, np.iinfo(dtype).max)
    a, b = values((4, 9), dtype, low, high), values((4, 9), dtype, low, high)
    for op in BITWISE:
        check(op, a, b)
        check(op, b[:1], a)
        check(op, a, 3)
        check(op, 5, a)
        check(op, a[:0], b[:0, :1])


@pytest.mark.parametrize("dtype", ALL_INTS + (np.bool_,), ids=lambda d: np.dtype(d).name)
def test_shifts(dtype):
    bits = 8 * np.dtype(dtype).itemsize
    low, high = (0, 1) if dtype == np.bool_ else (np.iinfo(dtype).min, np.iinfo(dtype).max)
    a = values((4, 9), dtype, low, high)
    for op in ("LeftShift", "RightShift"):
        check(op, a, values((9,), dtype, -3, bits + 2))     # negative, 0 .. width + 2
        check(op, a, values((4, 1), dtype, 0, bits - 1))
        check(op, a, 3)
        check(op, a, bits)
        check(op, a[:0], a[:0])


def test_bitwise_quirks():
    check("BitwiseAnd", values((5,), np.uint8, 0, 255), -1)   # Python int wraps
    check("BitwiseOr", values((5,), np.bool_), values((5,), np.bool_))
    check("BitwiseXor", values((5,), np.int32), values((5,), np.int64))
    check("BitwiseAnd", values((5,), np.float32), values((5,), np.float32))   # TypeError
    check("LeftShift", np.array([1], np.int8), np.array([7], np.int8))        # -128
    check("RightShift", np.array([-128, -1, 64], np.int8), np.array([3, 100, 9], np.int8))
    check("LeftShift", values((3,), np.bool_), values((3,), np.bool_))


def test_invert():
    for dtype in ALL_INTS + (np.bool_,):
        check("Invert", values((4, 5), dtype))
    check("Invert", np.zeros((0,), np.uint16))
    check("Invert", values((3,), np.float32))   # TypeError from both


# -- division and modulo ------------------------------------------------------------------------
def divisor(shape, dtype):
    """Divisors with zeros, -1 and, for floats, the special values."""
    b = values(shape, dtype, -4, 4)
    if np.dtype(dtype).kind == "f" and b.size >= 4:
        b.reshape(-1)[:4] = [0.0, -0.0, np.inf, np.nan]
    return b


def dividend(shape, dtype):
    """Dividends with the dtype's extremes (MIN / -1 included)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        a = values(shape, dtype)
        a.reshape(-1)[:3] = [np.inf, -0.0, np.nan][:a.size]
        return a
    info = np.iinfo(dtype)
    a = values(shape, dtype, max(info.min, -100), min(info.max, 100))
    a.reshape(-1)[:2] = [info.min, info.max][:a.size]
    return a


@pytest.mark.parametrize("dtype", FLOATS + DIVISION_INTS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shapes", BROADCASTS, ids=str)
def test_division(dtype, shapes):
    a, b = dividend(shapes[0], dtype), divisor(shapes[1], dtype)
    for op in DIVISIONS:
        check_bits(op, a, b)
    for mode in ("trunc", "floor"):
        check_bits("DivMod", a, b, mode)


@pytest.mark.parametrize("dtype", ALL_INTS, ids=lambda d: np.dtype(d).name)
def test_integer_division_edges(dtype):
    """Every quotient and modulo of the dtype's extremes, 0 and +-1 by
    0, +-1, +-2 and the extremes (all pairs)."""
    info = np.iinfo(dtype)
    candidates = {info.min, info.min + 1, -2, -1, 0, 1, 2, 7, info.max - 1, info.max}
    edges = np.array(sorted(v for v in candidates if info.min <= v <= info.max), dtype)
    if dtype not in DIVISION_INTS:
        edges = edges.astype(np.int64 if info.min < 0 else np.uint64)
    x, y = edges.reshape(-1, 1), edges.reshape(1, -1)
    for op in ("FloorDiv", "FloorMod", "Mod", "TruncateDiv", "TruncateMod"):
        check(op, x, y)
    for mode in ("trunc", "floor"):
        check("DivMod", x, y, mode)
    for divisor_value in edges:                 # constant divisors: NumPy's libdivide path
        check("FloorDiv", edges, divisor_value.reshape(()))


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_float_modulo_is_exact(dtype):
    """The fma-based fmod equals the C library's bit for bit, over
    quotients from 1e-8 to 1e30 (the largest through the C library),
    subnormals and quotients just below an integer."""
    size = 20_000
    a = rng.standard_normal(size) * 10.0 ** rng.uniform(-30, 30, size)
    b = rng.standard_normal(size) * 10.0 ** rng.uniform(-8, 8, size)
    a, b = a.astype(dtype), b.astype(dtype)
    steps = np.arange(1, 2049, dtype=dtype)     # above SMALL: the compiled path
    tiny = np.finfo(dtype).smallest_subnormal * steps
    ones = np.nextafter(dtype(7), dtype(0)) * steps
    for x, y in ((a, b), (b, a), (tiny, tiny[::-1].copy()), (ones, dtype(7)), (a, dtype(1))):
        for op in ("Mod", "FloorMod"):
            check_bits(op, x, y)


@pytest.mark.parametrize("op", DIVISIONS)
def test_division_scalars_promotion_and_fallbacks(op):
    """Python numbers, promotion, float16 and bool (the reference), large
    outputs cut across threads."""
    ints, floats = values((4, 6), np.int32), values((4, 6), np.float32)
    check_bits(op, ints, 3)
    check_bits(op, ints, -2)
    check_bits(op, ints, 0)
    check_bits(op, 7, divisor((6,), np.int32))
    check_bits(op, ints, 2.5)                       # float32
    check_bits(op, floats, 0.0)
    check_bits(op, -5.5, floats)
    check_bits(op, ints, values((6,), np.int64))     # promoted to int64
    check_bits(op, ints, divisor((4, 6), np.float64))
    check(op, values((4,), np.float16), divisor((4,), np.float16))
    check(op, values((4,), np.bool_), values((4,), np.bool_))   # TypeError from both
    check_bits(op, dividend((600, 1000), np.int32), divisor((1000,), np.int32))
    check_bits(op, dividend((2, 300_000), np.float64), 0.75)
    check_bits(op, dividend((8, 12, 64, 128), np.int32), divisor((8, 1, 1, 128), np.int32))


def test_div_mod_rounding_modes():
    for mode in (None, "trunc", "floor"):
        for dtype in FLOATS + DIVISION_INTS:
            check_bits("DivMod", dividend((5, 7), dtype), divisor((7,), dtype), mode)
        check_bits("DivMod", values((5,), np.int32), 2, mode)
        check_bits("DivMod", values((5,), np.float16), divisor((5,), np.float16), mode)
        check_bits("DivMod", values((5,), np.bool_), np.ones(5, bool), mode)
        check_bits("DivMod", dividend((3, 1), np.float32), divisor((2, 3, 100_000), np.float32),
                   mode)


# -- Select and MaskedFill ----------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES + (np.int8, np.uint64), ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shapes", [((3, 4, 100), (3, 4, 100), (3, 4, 100)), ((4, 1), (4, 600), ()),
                                    ((2, 1, 30), (1, 40, 1), (30,)), ((), (1100,), (1,)),
                                    ((0, 5), (5,), ()), ((20, 1, 3), (1, 40, 1), (1,)),
                                    ((3, 1, 1, 128), (3, 4, 40, 128), (128,)),
                                    ((3, 4, 5), (3, 4, 5), ())],   # small: NumPy's np.where
                         ids=str)
def test_select(dtype, shapes):
    cond = values(shapes[0], np.bool_)
    a, b = values(shapes[1], dtype), values(shapes[2], dtype)
    check("Select", cond, a, b)
    check("MaskedFill", a, cond, 1.5 if np.dtype(dtype).kind == "f" else 3)


def test_select_and_masked_fill_special_cases():
    cond = values((5, 6), np.bool_)
    x = SPECIAL[:6].astype(np.float32) * np.ones((5, 1), np.float32)
    check("Select", cond, x, 2.0)
    check("Select", cond, 1, x)
    check("Select", cond, values((5, 6), np.int32), x)          # promoted to float32
    check("Select", cond, 1, 2)                                  # two numbers: reference
    check("Select", values((5, 6), np.int32, 0, 1), x, -x)       # int condition
    check("Select", values((600, 1000), np.bool_), values((600, 1000), np.float64), np.nan)
    check("MaskedFill", x, cond, np.array(7.0, np.float64))
    check("MaskedFill", values((5, 6), np.int32), cond, -2.7)  # truncated, as Cast
    check("MaskedFill", values((5, 6), np.uint8, 0, 255), values((6,), np.bool_), 300)
    check("MaskedFill", values((2, 300_000), np.float32), values((2, 1), np.bool_), -np.inf)
    attention, padding = values((8, 12, 64, 128), np.float32), values((8, 1, 1, 128), np.bool_)
    check("MaskedFill", attention, padding, -1e9)          # short rows, across threads
    check("Select", padding, np.float32(0), attention)


# -- Cast -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("target", ALL_INTS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("source", FLOATS, ids=lambda d: np.dtype(d).name)
def test_cast_float_to_int(source, target):
    edges = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, -1.7, 1.7, 300.0, -300.5, 2.0 ** 31,
                      -2.0 ** 31, 2.0 ** 31 - 1, -2.0 ** 31 - 1, 2.0 ** 32, 2.0 ** 63, -2.0 ** 63,
                      1e30, -1e30, 65535.9, 4294967295.0])
    check("Cast", edges.astype(source), np.dtype(target))
    check("Cast", values((3, 4, 5), source) * 1e3, np.dtype(target))
    check("Cast", values((4, 6), source).T, np.dtype(target))   # non-contiguous
    check("Cast", np.zeros((0, 3), source), np.dtype(target))


def test_cast_other_conversions_and_large():
    check("Cast", values((600, 1000), np.float32) * 1e4, np.dtype(np.int32))
    check("Cast", np.float32(2.5) * np.ones((), np.float32), np.dtype(np.int64))
    for source, target in ((np.float16, np.int32), (np.int32, np.float32), (np.float64, np.bool_),
                           (np.int64, np.uint8), (np.bool_, np.float32), (np.float32, np.float16),
                           (np.float32, np.float32)):
        check("Cast", values((3, 5), source), np.dtype(target))
    check("Cast", SPECIAL.astype(np.float32), np.dtype(np.bool_))
