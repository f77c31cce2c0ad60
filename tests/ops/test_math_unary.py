"""Unary elementwise math against Python's math module in float64, over
every float dtype and shapes with rank 0 and 0-size dims; the rounding ops
and special values (NaN, +-0, halves) as MindSpore 2.7.1 CPU computes them."""
import math

import numpy as np
import pytest

from math_helpers import FLOATS, UNARY_SHAPES, apply, sample
from tolerances import tolerance

from refinfer.registry import get_op


def erfinv(y):
    """Inverse of math.erf by bisection (independent of the op's Newton)."""
    if abs(y) == 1:
        return math.copysign(math.inf, y)
    lo, hi = -6.0, 6.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if math.erf(mid) < y else (lo, mid)
    return (lo + hi) / 2


def sinc(v):
    return 1.0 if v == 0 else math.sin(math.pi * v) / (math.pi * v)


# op -> (float64 reference, low, high): the sampled domain keeps results finite.
UNARY = {
    "Log": (math.log, 0.05, 5.0),
    "Rsqrt": (lambda v: 1 / math.sqrt(v), 0.05, 9.0),
    "Erf": (math.erf, -3.0, 3.0),
    "Erfc": (math.erfc, -3.0, 5.0),
    "Erfinv": (erfinv, -0.99, 0.99),
    "Sin": (math.sin, -6.0, 6.0),
    "Cos": (math.cos, -6.0, 6.0),
    "Tan": (math.tan, -1.4, 1.4),
    "Sinh": (math.sinh, -4.0, 4.0),
    "Cosh": (math.cosh, -4.0, 4.0),
    "Asin": (math.asin, -0.99, 0.99),
    "ACos": (math.acos, -0.99, 0.99),
    "Atan": (math.atan, -9.0, 9.0),
    "Asinh": (math.asinh, -9.0, 9.0),
    "Acosh": (math.acosh, 1.0, 9.0),
    "Atanh": (math.atanh, -0.95, 0.95),
    "Log1p": (math.log1p, -0.9, 4.0),
    "Expm1": (math.expm1, -3.0, 3.0),
    "Exp2": (lambda v: 2.0 ** v, -4.0, 4.0),
    "Log2": (math.log2, 0.05, 9.0),
    "Log10": (math.log10, 0.05, 9.0),
    "Floor": (math.floor, -9.0, 9.0),
    "Ceil": (math.ceil, -9.0, 9.0),
    "Trunc": (math.trunc, -9.0, 9.0),
    "Frac": (lambda v: v - math.trunc(v), -9.0, 9.0),
    "Reciprocal": (lambda v: 1 / v, 0.2, 4.0),
    "Sinc": (sinc, -3.0, 3.0),
    "Round": (round, -9.0, 9.0),  # Python rounds halves to even, as MindSpore
    "Rint": (round, -9.0, 9.0),   # Python's round: halves to even, as rint
    "Sign": (lambda v: float((v > 0) - (v < 0)), -3.0, 3.0),
}


@pytest.mark.parametrize("op", sorted(UNARY))
@pytest.mark.parametrize("dtype", FLOATS)
def test_unary_float(call, close, rng, op, dtype):
    f, low, high = UNARY[op]
    for shape in UNARY_SHAPES:
        x = sample(rng, shape, dtype, low, high)
        close(call(op, x), apply(f, x), dtype, **tolerance(op, dtype))


@pytest.mark.parametrize("op", ["Erf", "Sin", "Sinc", "Atan", "Exp2", "Floor"])
@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.bool_])
def test_unary_float_math_of_integers_gives_float32(call, close, rng, op, dtype):
    f = UNARY[op][0]
    x = sample(rng, (2, 3), dtype, 1, 9)
    close(call(op, x), apply(f, x), np.float32)


EDGES = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.0, -0.0, 3.7, -3.7, math.nan,
         math.inf, -math.inf]


@pytest.mark.parametrize("dtype", FLOATS)
def test_round_halves_to_even_and_keeps_specials(call, close, dtype):
    x = np.array(EDGES, dtype)
    expected = [0, 2, 2, -0.0, -2, -2, 0, -0.0, 4, -4, math.nan, math.inf, -math.inf]
    got = call("Round", x)
    close(got, expected, dtype, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(np.array(expected)))


def test_round_decimals_and_integers(call, close):
    close(call("Round", np.array([1.25, -2.675, 0.35], np.float64), 1),
          np.round(np.array([1.25, -2.675, 0.35]), 1), np.float64)
    for dtype in (np.int32, np.uint8, np.bool_):
        x = np.array([0, 1, 1], dtype)
        assert call("Round", x) is x


def test_sign_of_nan_is_zero(call, close):
    # MindSpore 2.7.1 CPU: sign([nan, inf, -0.0, -3]) = [0, 1, 0, -1].
    close(call("Sign", np.array([math.nan, math.inf, -0.0, -3], np.float32)),
          [0, 1, 0, -1], np.float32)
    close(call("Sign", np.array([-7, 0, 9], np.int64)), np.array([-1, 0, 1], np.int64))


@pytest.mark.parametrize("backend", ["reference", "numba"])
def test_sign_of_bool_names_the_dtypes_it_takes(backend):
    # bool reached NumPy's sign, which rejects it (issue 17).
    with pytest.raises(TypeError, match=r"Sign: input must be float16, .*, "
                                        r"uint64, got bool\[3\]"):
        get_op("Sign").kernel(backend)(np.array([True, False, True]))


def test_reciprocal_and_sqrt_of_integers(call, close):
    close(call("Reciprocal", np.array([0, 2, -4], np.int32)), [math.inf, 0.5, -0.25],
          np.float32)
    close(call("Sinc", np.array([0, 1, -2], np.int32)), [1, 0, 0], np.float32, atol=1e-7)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8])
def test_integer_identities(call, close, rng, dtype):
    x = sample(rng, (3, 4), dtype, -100, 100)
    close(call("Trunc", x), x)
    close(call("Frac", x), np.zeros_like(x))
    close(call("Invert", x), apply(lambda v: ~v, x, out=dtype))


def test_invert_bool_and_float(call, close):
    close(call("Invert", np.array([True, False])), np.array([False, True]))
    with pytest.raises(TypeError):
        call("Invert", np.array([1.0], np.float32))


@pytest.mark.parametrize("dtype", FLOATS)
def test_nan_to_num_defaults_and_arguments(call, close, dtype):
    x = np.array([1.0, math.nan, math.inf, -math.inf, -0.0], dtype)
    info = np.finfo(dtype)
    close(call("NanToNum", x), [1.0, 0.0, float(info.max), float(info.min), -0.0], dtype)
    close(call("NanToNum", x, 1.5, 100.0, -100.0), [1.0, 1.5, 100, -100, 0.0], dtype)
    ints = np.array([1, 2], np.int32)
    assert call("NanToNum", ints) is ints


@pytest.mark.parametrize("dtype", FLOATS)
def test_logit_with_and_without_eps(call, close, dtype):
    x = np.array([0.0, 0.05, 0.3, 0.95, 1.0, 1.5], dtype)

    def logit(v, eps):
        z = v if eps < 0 else min(max(v, eps), 1 - eps)
        if z in (0.0, 1.0):
            return -math.inf if z == 0 else math.inf
        return math.log(z / (1 - z)) if 0 < z < 1 else math.nan
    for eps in (-1.0, 0.1):
        close(call("Logit", x, eps), apply(lambda v: logit(v, eps), x), dtype,
              equal_nan=True)


def test_float_math_edge_values(call, close):
    x = np.array([0.0, -1.0, math.inf, math.nan], np.float32)
    close(call("Log", x), [-math.inf, math.nan, math.inf, math.nan], np.float32,
          equal_nan=True)
    close(call("Rsqrt", x), [math.inf, math.nan, 0.0, math.nan], np.float32,
          equal_nan=True)
    close(call("Erfinv", np.array([1.0, -1.0, 1.5], np.float32)),
          [math.inf, -math.inf, math.nan], np.float32, equal_nan=True)
    close(call("Atanh", np.array([1.0, -1.0], np.float64)), [math.inf, -math.inf],
          np.float64)
