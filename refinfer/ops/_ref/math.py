"""Helpers shared by the elementwise math and activation ops (Sin, Erf, GeLU,
FloorMod, ...): compute dtypes, integer results of real math, special
functions NumPy lacks."""
from __future__ import annotations

import math

import numpy as np

from .common import (as_float, as_result, cast, compute_dtype, float_to_int, number,
                     promote, require_tensors)


def unary_float(fn, x: np.ndarray) -> np.ndarray:
    """``fn`` (array -> array) applied in x's compute dtype.

    Floats keep their dtype (float16 is computed in float32 and rounded
    back); integer and bool inputs give float32. IEEE edge cases (log(0),
    sqrt(-1), overflow) give inf / NaN without warnings.
    """
    x = as_float(x)
    with np.errstate(all="ignore"):
        y = fn(x.astype(compute_dtype(x.dtype), copy=False))
    return as_result(y, x.dtype)


def binary_float(fn, a, b) -> np.ndarray:
    """``fn`` (a, b -> array) on the promoted operands, as ``unary_float``:
    a float result dtype is kept, integer and bool operands give float32."""
    a, b = promote(a, b)
    a = as_float(a)
    work = compute_dtype(a.dtype)
    with np.errstate(all="ignore"):
        y = fn(a.astype(work, copy=False), b.astype(work, copy=False))
    return as_result(y, a.dtype)


def real_or_truncated(fn, x: np.ndarray) -> np.ndarray:
    """``fn`` for activations MindSpore also runs on integers: floats as
    ``unary_float``; integers get the float64 result truncated toward zero
    (MindSpore's CPU kernels compute in float and cast back)."""
    if x.dtype.kind == "f":
        return unary_float(fn, x)
    with np.errstate(all="ignore"):
        y = fn(x.astype(np.float64))
    return float_to_int(y, x.dtype)


def scalar_math(fn, x: np.ndarray) -> np.ndarray:
    """A float64 ``math`` function of one number, elementwise (for functions
    NumPy lacks: erf, erfc)."""
    return np.vectorize(fn, otypes=[np.float64])(x) if x.size else \
        x.astype(np.float64)


def erf_f64(x: np.ndarray) -> np.ndarray:
    return scalar_math(math.erf, x)


def _erfinv_scalar(y: float) -> float:
    """Inverse error function of one number, to float64 accuracy: Giles'
    single-precision approximation refined by two Newton steps on math.erf."""
    if not -1.0 <= y <= 1.0:
        return math.nan
    if abs(y) == 1.0:
        return math.copysign(math.inf, y)
    w = -math.log((1.0 - y) * (1.0 + y))
    if w < 5.0:
        w -= 2.5
        coeffs = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                  0.00021858087, -0.00125372503, -0.00417768164, 0.246640727,
                  1.50140941)
    else:
        w = math.sqrt(w) - 3.0
        coeffs = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
                  0.00573950773, -0.0076224613, 0.00943887047, 1.00167406,
                  2.83297682)
    p = 0.0
    for c in coeffs:
        p = p * w + c
    x = p * y
    for _ in range(2):  # Newton: erf'(x) = 2/sqrt(pi) exp(-x^2)
        x -= (math.erf(x) - y) / (2.0 / math.sqrt(math.pi) * math.exp(-x * x))
    return x


def erfinv_f64(x: np.ndarray) -> np.ndarray:
    return scalar_math(_erfinv_scalar, x)


def _divisor(a: np.ndarray, b: np.ndarray):
    """Integer operands broadcast, the divisor with zeros replaced by 1, and
    the zero mask (MindSpore's CPU kernels special-case x / 0)."""
    a, b = np.broadcast_arrays(a, b)
    zero = b == 0
    return a, np.where(zero, 1, b).astype(b.dtype), zero


def _saturated(a: np.ndarray) -> np.ndarray:
    """An integer x / 0 on MindSpore 2.7.1 CPU: the dtype's max for x > 0,
    its min for x < 0, 0 for 0 (as RealDiv)."""
    info = np.iinfo(a.dtype)
    return np.where(a > 0, info.max, np.where(a < 0, info.min, 0)).astype(a.dtype)


def true_divide(input, other) -> np.ndarray:
    """input / other as Div: promoted operands, integers and bools divided
    in float32, IEEE results for x / 0 (Div and DivMod's true division)."""
    a, b = promote(input, other)
    if a.dtype.kind not in "fc":
        a, b = a.astype(np.float32), b.astype(np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        return as_result(np.true_divide(a, b))


def power(input, exponent) -> np.ndarray:
    """input ** exponent after promotion; integers with a negative exponent
    give the real result truncated as MindSpore CPU casts it (Pow)."""
    a, b = promote(input, exponent)
    if a.dtype.kind in "fc":
        with np.errstate(all="ignore"):
            return as_result(np.power(a, b))
    a, b = np.broadcast_arrays(a, b)
    negative = b < 0
    with np.errstate(over="ignore"):
        y = np.power(a, np.where(negative, 0, b).astype(b.dtype))
    if negative.any():
        with np.errstate(divide="ignore"):
            real = np.power(a.astype(np.float64), b.astype(np.float64))
        y = np.where(negative, float_to_int(real, a.dtype), y)
    return as_result(y)


def floor_divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """floor(a / b) in the operands' (common) dtype. Floats follow IEEE
    (x / 0 -> +-inf, 0 / 0 -> NaN); an integer x / 0 saturates."""
    if a.dtype.kind in "fc":
        with np.errstate(all="ignore"):
            return as_result(np.floor(np.true_divide(a, b)), a.dtype)
    a, safe, zero = _divisor(a, b)
    with np.errstate(all="ignore"):
        return as_result(np.where(zero, _saturated(a), np.floor_divide(a, safe)))


def truncate_divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """trunc(a / b) in the operands' dtype (C integer division); an integer
    x / 0 saturates."""
    if a.dtype.kind in "fc":
        with np.errstate(all="ignore"):
            return as_result(np.trunc(np.true_divide(a, b)), a.dtype)
    a, safe, zero = _divisor(a, b)
    with np.errstate(all="ignore"):
        q = np.floor_divide(a, safe)
    q += ((q * safe != a) & ((a < 0) != (safe < 0))).astype(q.dtype)
    return as_result(np.where(zero, _saturated(a), q))


def floor_mod(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a - floor(a / b) * b: the result has the divisor's sign (Python %).
    Floats: x mod 0 is NaN; integers: x mod 0 gives the dtype's minimum
    (MindSpore 2.7.1 CPU)."""
    with np.errstate(all="ignore"):
        if a.dtype.kind in "fc":
            return as_result(np.mod(a, b), a.dtype)
        a, safe, zero = _divisor(a, b)
        minimum = a.dtype.type(np.iinfo(a.dtype).min)
        return as_result(np.where(zero, minimum, np.mod(a, safe)))


def trunc_mod(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a - trunc(a / b) * b: the result has the dividend's sign (C fmod).
    Floats: x mod 0 is NaN; integers: x mod 0 gives 0 here."""
    with np.errstate(all="ignore"):
        if a.dtype.kind in "fc":
            return as_result(np.fmod(a, b), a.dtype)
        a, safe, zero = _divisor(a, b)
        return as_result(np.where(zero, a.dtype.type(0), np.fmod(a, safe)))


def scaled(b: np.ndarray, alpha, op: str) -> np.ndarray:
    """alpha * b in b's dtype (AddExt, SubExt): integers wrap, bool stays
    bool; a float alpha needs a float operand."""
    if isinstance(alpha, np.ndarray):
        alpha = alpha.reshape(-1)[0].item()
    if b.dtype.kind in "biu" and isinstance(alpha, (float, np.floating)):
        raise TypeError(f"{op}: a float alpha needs float operands")
    if alpha == 1:
        return b
    with np.errstate(over="ignore"):
        return np.multiply(b, np.asarray(alpha).astype(b.dtype))


def bitwise_operands(a, b):
    """Integer or bool operands of the bitwise ops, promoted as for
    arithmetic (a Python int takes the tensor's dtype)."""
    a, b = promote(a, b)
    if a.dtype.kind not in "biu":
        raise TypeError(f"bitwise ops need integer or bool operands, got {a.dtype}")
    return a, b


def common_dtype(*operands) -> list[np.ndarray]:
    """Tensors and Python numbers as arrays of their promoted dtype (the
    first operand is a tensor); promotion as ``promote``, pairwise from the
    left."""
    acc = operands[0]
    for other in operands[1:]:
        acc = promote(acc, other)[0]
    return [promote(acc, value)[1] if i else promote(value, acc)[0]
            for i, value in enumerate(operands)]


def clamp(x: np.ndarray, low, high) -> np.ndarray:
    """minimum(maximum(x, low), high) in x's dtype; bounds (numbers or
    tensors, None for none) are converted to x's dtype first, floats to
    integers by truncation as MindSpore's Cast."""
    require_tensors("", input=x)
    y = x
    for bound, limit in ((low, np.maximum), (high, np.minimum)):
        if bound is not None:
            bound = bound if isinstance(bound, np.ndarray) else number(bound)
            y = limit(y, cast(np.asarray(bound), x.dtype))
    return as_result(y, x.dtype)


def logistic(x: np.ndarray) -> np.ndarray:
    """1 / (1 + e ** -x) without overflow warnings (saturates to 0 / 1)."""
    with np.errstate(over="ignore"):
        return 1 / (1 + np.exp(-x))


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    """GeLU's tanh approximation, in x's dtype."""
    inner = np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)
    return 0.5 * x * (1 + np.tanh(inner))


# SeLU's constants (the reference and its program share them).
SELU_ALPHA = 1.6732632423543772
SELU_SCALE = 1.0507009873554805


def channel_weight(input, weight):
    """PReLU's weight shaped to broadcast against input: along axis 1, or
    one shared value (0-d)."""
    w = weight.reshape(-1)
    if input.ndim >= 2 and w.size != 1:
        return w.reshape((1, -1) + (1,) * (input.ndim - 2))
    return w.reshape(()) if w.size == 1 else w


def rotated(x: np.ndarray, interleaved: bool) -> np.ndarray:
    """Rotary embedding's partner of x along the last axis (D, even):
    rotate_half concat(-x[D/2:], x[:D/2]), or interleaved (-x[1], x[0],
    -x[3], x[2], ...)."""
    if interleaved:
        return np.stack((-x[..., 1::2], x[..., 0::2]), axis=-1).reshape(x.shape)
    first, second = np.split(x, 2, axis=-1)
    return np.concatenate((-second, first), axis=-1)
