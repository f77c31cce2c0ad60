"""Error metrics between an ACTUAL tensor and an EXPECTED (reference) one.

One plain function per metric, shared by ``refinfer compare``, the debug
tools and the Python API. All take ``(actual, expected)`` of equal shape.

Unless stated otherwise a metric is computed in float64 over the elements
where **both** sides are finite (NaN and Inf are counted separately, by
:func:`nan_count` and :func:`inf_count`); when there is no such element the
metric is NaN. :func:`mean_bias` is the exception: it reproduces MindSpore
Lite's ``benchmark`` computation bit for bit, in float32, over all elements.
"""
from __future__ import annotations

import math

import numpy as np

# MindSpore Lite benchmark (tools/benchmark/benchmark_base.h) constants.
LITE_RELATIVE_TOLERANCE = np.float32(1e-5)
LITE_ABSOLUTE_TOLERANCE = np.float32(1e-8)
FLT_EPSILON = np.finfo(np.float32).eps
FLT_MIN = np.finfo(np.float32).tiny


def finite_pairs(actual, expected) -> tuple[np.ndarray, np.ndarray]:
    """The elements where both sides are finite, flattened, as float64."""
    a = np.asarray(actual, dtype=np.float64).ravel()
    e = np.asarray(expected, dtype=np.float64).ravel()
    if a.shape != e.shape:
        raise ValueError(f"element counts differ: {a.size} vs {e.size}")
    both = np.isfinite(a) & np.isfinite(e)
    if both.all():
        return a, e
    return a[both], e[both]


def relative_errors(actual, expected) -> np.ndarray:
    """Elementwise ``|a - e| / |e|`` over finite pairs, with ``0/0 = 0`` and
    ``x/0 = inf`` for ``x > 0``."""
    a, e = finite_pairs(actual, expected)
    diff, scale = np.abs(a - e), np.abs(e)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = diff / scale
    rel[diff == 0] = 0.0
    return rel


def max_abs_err(actual, expected) -> float:
    """``max |a - e|``."""
    a, e = finite_pairs(actual, expected)
    return float(np.max(np.abs(a - e))) if a.size else math.nan


def max_rel_err(actual, expected) -> float:
    """``max |a - e| / |e|`` (``0/0 = 0``, ``x/0 = inf``)."""
    rel = relative_errors(actual, expected)
    return float(np.max(rel)) if rel.size else math.nan


def mean_abs_err(actual, expected) -> float:
    """``mean |a - e|``."""
    a, e = finite_pairs(actual, expected)
    return float(np.mean(np.abs(a - e))) if a.size else math.nan


def rmse(actual, expected) -> float:
    """Root mean square error ``sqrt(mean((a - e)^2))``."""
    a, e = finite_pairs(actual, expected)
    return float(np.sqrt(np.mean(np.square(a - e)))) if a.size else math.nan


def cosine_similarity(actual, expected) -> float:
    """``sum(a * e) / (||a|| * ||e||)``; 1.0 when both vectors are zero, 0.0
    when exactly one is."""
    a, e = finite_pairs(actual, expected)
    if not a.size:
        return math.nan
    norm_a, norm_e = np.linalg.norm(a), np.linalg.norm(e)
    if norm_a == 0 or norm_e == 0:
        return 1.0 if norm_a == norm_e else 0.0
    return float(np.dot(a, e) / (norm_a * norm_e))


def within_ratio(actual, expected, tolerance: float) -> float:
    """Share of elements with relative error ``|a - e| / |e| <= tolerance``
    (msprobe's "thousandth" ratios use 0.001 and 0.005)."""
    rel = relative_errors(actual, expected)
    return float(np.mean(rel <= tolerance)) if rel.size else math.nan


def within_1e3(actual, expected) -> float:
    """Share of elements within 1/1000 relative error."""
    return within_ratio(actual, expected, 1e-3)


def within_5e3(actual, expected) -> float:
    """Share of elements within 5/1000 relative error."""
    return within_ratio(actual, expected, 5e-3)


def nan_count(array) -> int:
    """Number of NaN elements (0 for non-float arrays)."""
    array = np.asarray(array)
    return int(np.count_nonzero(np.isnan(array))) if _inexact(array) else 0


def inf_count(array) -> int:
    """Number of +Inf and -Inf elements (0 for non-float arrays)."""
    array = np.asarray(array)
    return int(np.count_nonzero(np.isinf(array))) if _inexact(array) else 0


def mismatch_count(actual, expected, atol: float, rtol: float) -> int:
    """Elements failing ``|a - e| <= atol + rtol * |e|`` (``numpy.isclose``,
    NaN equal to NaN, Inf equal to Inf of the same sign)."""
    close = np.isclose(_float(actual), _float(expected), rtol=rtol,
                       atol=atol, equal_nan=True)
    return int(close.size - np.count_nonzero(close))


def mean_bias(actual, expected) -> float:
    """MindSpore Lite ``benchmark``'s "mean bias" (a fraction; Lite prints it
    times 100 as a percentage and fails above ``--accuracyThreshold``,
    default 0.5).

    In float32, for every element with ``|a - e| > 1e-8 + 1e-5 * |e|``:
    the error is ``|a - e|`` if ``|e| < FLT_EPSILON`` (counted only when
    ``> 1e-5``), else ``|a - e| / (|e| + FLT_MIN)``. The errors are summed
    in element order in float32 and divided by their count; 0 when no
    element fails. A NaN or Inf in ``actual`` fails the comparison in Lite:
    the result is then ``inf``.
    """
    a = np.asarray(actual).astype(np.float32).ravel()
    e = np.asarray(expected).astype(np.float32).ravel()
    if a.shape != e.shape:
        raise ValueError(f"element counts differ: {a.size} vs {e.size}")
    if not np.all(np.isfinite(a)):
        return math.inf
    with np.errstate(invalid="ignore", over="ignore"):
        abs_err, scale = np.abs(a - e), np.abs(e)
        tolerance = LITE_ABSOLUTE_TOLERANCE + LITE_RELATIVE_TOLERANCE * scale
        near_zero = scale < FLT_EPSILON
        counted = (abs_err > tolerance) & (~near_zero | (abs_err > 1e-5))
        relative = abs_err / (scale + FLT_MIN)
        errors = np.where(near_zero, abs_err, relative)[counted]
    if not errors.size:
        return 0.0
    total = np.cumsum(errors, dtype=np.float32)[-1]
    if total <= 0:
        return 0.0
    return float(total / np.float32(errors.size))


def stats(array) -> dict:
    """Summary of one tensor: min, max, mean, std (float64; NaN and Inf
    propagate), and the NaN and Inf counts; ``None`` values for empty or
    non-numeric arrays."""
    array = np.asarray(array)
    numeric = array.dtype.kind in "biuf"
    result = {"min": None, "max": None, "mean": None, "std": None,
              "nan": nan_count(array) if numeric else 0,
              "inf": inf_count(array) if numeric else 0}
    if numeric and array.size:
        values = array.astype(np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            result.update(min=float(values.min()), max=float(values.max()),
                          mean=float(values.mean()), std=float(values.std()))
    return result


def _inexact(array: np.ndarray) -> bool:
    return array.dtype.kind in "fc"


def _float(array) -> np.ndarray:
    return np.asarray(array, dtype=np.float64)
