"""Comparisons, logic, MaskedFill and the NaN / inf tests against Python
operators on scalars, over broadcasting shapes (rank 0, 0-size dims) and
every dtype, with MindSpore's promotion of Python-scalar operands."""
import math
import operator

import numpy as np
import pytest

from math_helpers import BINARY_SHAPES, FLOATS, INTS, UNARY_SHAPES, apply, sample

COMPARISONS = {"Equal": operator.eq, "NotEqual": operator.ne, "Greater": operator.gt,
               "GreaterEqual": operator.ge, "Less": operator.lt, "LessEqual": operator.le}
LOGICAL = {"LogicalAnd": lambda a, b: bool(a) and bool(b),
           "LogicalOr": lambda a, b: bool(a) or bool(b),
           "LogicalXor": lambda a, b: bool(a) != bool(b)}


@pytest.mark.parametrize("op", sorted(COMPARISONS))
@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.bool_])
def test_comparisons(call, close, rng, op, dtype):
    for xs, ys in BINARY_SHAPES:
        x, y = sample(rng, xs, dtype, -2, 2), sample(rng, ys, dtype, -2, 2)
        close(call(op, x, y), apply(COMPARISONS[op], x, y, out=bool))


@pytest.mark.parametrize("op", sorted(COMPARISONS))
def test_comparisons_with_nan_and_infinities(call, close, op):
    values = [1.0, -0.0, 0.0, math.nan, math.inf, -math.inf]
    x = np.array(values, np.float32)[:, None]
    y = np.array(values, np.float32)[None, :]
    close(call(op, x, y), apply(COMPARISONS[op], x, y, out=bool))


@pytest.mark.parametrize("op", sorted(COMPARISONS))
def test_comparisons_promote_python_scalars(call, close, op):
    f = COMPARISONS[op]
    u8 = np.array([0, 1, 254, 255], np.uint8)
    # -1 wraps to 255 in uint8, as in MindSpore; 300 wraps to 44
    close(call(op, u8, -1), apply(lambda v: f(v, 255), u8, out=bool))
    close(call(op, u8, 300), apply(lambda v: f(v, 44), u8, out=bool))
    i32 = np.array([-1, 0, 1, 2], np.int32)
    close(call(op, i32, 0.5), apply(lambda v: f(v, 0.5), i32, out=bool))
    close(call(op, 1, i32), apply(lambda v: f(1, v), i32, out=bool))


@pytest.mark.parametrize("op", sorted(LOGICAL))
@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float32, np.uint8])
def test_logical_binary(call, close, rng, op, dtype):
    for xs, ys in BINARY_SHAPES:
        x, y = sample(rng, xs, dtype, -1, 1), sample(rng, ys, dtype, -1, 1)
        close(call(op, x, y), apply(LOGICAL[op], x, y, out=bool))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float64])
def test_logical_not(call, close, rng, dtype):
    for shape in UNARY_SHAPES:
        x = sample(rng, shape, dtype, -1, 1)
        close(call("LogicalNot", x), apply(lambda v: not v, x, out=bool))
    close(call("LogicalNot", np.array([math.nan, 0.0])), np.array([False, True]))


TESTS = {"IsNan": math.isnan, "IsInf": math.isinf, "IsFinite": math.isfinite,
         "IsNegInf": lambda v: v == -math.inf}


@pytest.mark.parametrize("op", sorted(TESTS))
@pytest.mark.parametrize("dtype", FLOATS + [np.int32, np.uint8, np.bool_])
def test_value_tests(call, close, op, dtype):
    specials = [1.0, -0.0, math.nan, math.inf, -math.inf, -2.5, 65504.0]
    x = np.array(specials, dtype) if np.dtype(dtype).kind == "f" else \
        np.array([0, 1, 1, 0], dtype)
    close(call(op, x), apply(lambda v: TESTS[op](float(v)), x, out=bool))
    for shape in UNARY_SHAPES:
        assert call(op, np.zeros(shape, dtype)).shape == shape


def isclose(a, b, rtol, atol, equal_nan):
    if math.isnan(a) or math.isnan(b):
        return equal_nan and math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= atol + rtol * abs(b)


@pytest.mark.parametrize("rtol,atol,equal_nan", [(1e-5, 1e-8, False), (0.01, 0.1, True)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_is_close(call, close, rng, rtol, atol, equal_nan, dtype):
    values = [1.0, 1.00001, 1.001, 1.05, 1.2, 0.0, 1e-9, 0.09, math.nan, math.inf,
              -math.inf]
    if dtype == np.int32:
        x, y = sample(rng, (4, 1), dtype, 0, 3), sample(rng, (5,), dtype, 0, 3)
    else:
        x = np.array(values, dtype)[:, None]
        y = np.array(values, dtype)[None, :]
    close(call("IsClose", x, y, rtol, atol, equal_nan),
          apply(lambda a, b: isclose(float(a), float(b), rtol, atol, equal_nan), x, y,
                out=bool))


@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.bool_])
def test_masked_fill(call, close, rng, dtype):
    for xs, ms in BINARY_SHAPES:
        x, mask = sample(rng, xs, dtype, -9, 9), sample(rng, ms, np.bool_)
        expected = apply(lambda v, m: 1 if m else v, x, mask,
                         out=dtype if np.dtype(dtype).kind in "biu" else np.float64)
        close(call("MaskedFill", x, mask, np.array(1, dtype)), expected, dtype)
        close(call("MaskedFill", x, mask, 1), expected, dtype)


def test_masked_fill_value_takes_the_input_dtype(call, close):
    x = np.array([1, 2, 3], np.int32)
    close(call("MaskedFill", x, np.array([True, False, True]), np.array(-2.7, np.float32)),
          np.array([-2, 2, -2], np.int32))
    close(call("MaskedFill", np.zeros(2, np.float16), np.array([True, False]), 70000.0),
          [math.inf, 0], np.float16)
