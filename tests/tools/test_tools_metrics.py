"""Each metric on small arrays whose values are worked out by hand."""
import math

import numpy as np
import pytest

from refinfer.tools import metrics

A = np.array([1.0, 2.0, 3.0, 4.0], np.float32)      # actual
E = np.array([1.0, 2.5, 2.0, 4.0], np.float32)      # expected
# |a - e| = [0, 0.5, 1, 0]; |a - e| / |e| = [0, 0.2, 0.5, 0]


def test_basic_errors():
    assert metrics.max_abs_err(A, E) == 1.0
    assert metrics.mean_abs_err(A, E) == 0.375
    assert metrics.rmse(A, E) == pytest.approx(math.sqrt((0.25 + 1) / 4))
    assert metrics.max_rel_err(A, E) == 0.5


def test_within_ratios():
    assert metrics.within_1e3(A, E) == 0.5
    assert metrics.within_5e3(A, E) == 0.5
    assert metrics.within_ratio(A, E, 0.2) == 0.75
    assert metrics.within_ratio(A, E, 0.5) == 1.0
    close = np.array([1.0, 1.004, 1.0009])
    assert metrics.within_1e3(close, np.ones(3)) == pytest.approx(2 / 3)
    assert metrics.within_5e3(close, np.ones(3)) == 1.0


def test_cosine():
    # a.e = 1 + 5 + 6 + 16 = 28, |a|^2 = 30, |e|^2 = 27.25
    assert metrics.cosine_similarity(A, E) == pytest.approx(
        28 / math.sqrt(30 * 27.25))
    assert metrics.cosine_similarity(A, -A) == pytest.approx(-1.0)
    assert metrics.cosine_similarity(A, 3 * A) == pytest.approx(1.0)


def test_zeros_in_expected():
    a = np.array([0.0, 1e-3, 0.0, 3.0])
    e = np.array([0.0, 0.0, 2.0, 3.0])
    # relative errors: 0/0 = 0, 1e-3/0 = inf, 2/2 = 1, 0/3 = 0
    np.testing.assert_array_equal(metrics.relative_errors(a, e),
                                  [0.0, np.inf, 1.0, 0.0])
    assert metrics.max_rel_err(a, e) == math.inf
    assert metrics.within_1e3(a, e) == 0.5
    assert metrics.max_abs_err(a, e) == 2.0


def test_cosine_of_zero_vectors():
    zeros = np.zeros(3)
    assert metrics.cosine_similarity(zeros, zeros) == 1.0
    assert metrics.cosine_similarity(zeros, np.ones(3)) == 0.0
    assert metrics.cosine_similarity(np.ones(3), zeros) == 0.0


def test_nan_and_inf_are_left_out_and_counted():
    a = np.array([np.nan, 1.0, np.inf, 2.0], np.float32)
    e = np.array([1.0, 1.0, np.inf, 3.0], np.float32)
    # finite pairs: (1, 1) and (2, 3)
    assert metrics.max_abs_err(a, e) == 1.0
    assert metrics.mean_abs_err(a, e) == 0.5
    assert metrics.max_rel_err(a, e) == pytest.approx(1 / 3)
    assert metrics.within_1e3(a, e) == 0.5
    assert (metrics.nan_count(a), metrics.inf_count(a)) == (1, 1)
    assert (metrics.nan_count(e), metrics.inf_count(e)) == (0, 1)
    # nan vs 1 differs; inf vs inf agrees; 2 vs 3 differs
    assert metrics.mismatch_count(a, e, atol=0, rtol=0) == 2
    assert metrics.mismatch_count(a, e, atol=1, rtol=0) == 1


def test_no_finite_pair_gives_nan():
    a = np.array([np.nan, np.inf])
    for fn in (metrics.max_abs_err, metrics.max_rel_err, metrics.mean_abs_err,
               metrics.rmse, metrics.cosine_similarity, metrics.within_1e3):
        assert math.isnan(fn(a, np.ones(2))), fn.__name__


def test_counts_of_integer_arrays():
    ints = np.array([1, 2, 3], np.int32)
    assert metrics.nan_count(ints) == metrics.inf_count(ints) == 0
    assert metrics.max_abs_err(ints, np.array([1, 2, 5])) == 2.0


def test_mismatch_count_nan_positions():
    e = np.array([1.0, np.nan])
    assert metrics.mismatch_count(np.array([1.0, np.nan]), e, 0, 0) == 0
    assert metrics.mismatch_count(np.array([np.nan, 1.0]), e, 0, 0) == 2


def test_mismatch_count_is_relative_to_expected():
    # |a - e| <= atol + rtol * |e|, with e the expected value: at rtol 0.095
    # actual 11 vs expected 10 fails (1 > 0.95), 10 vs 11 passes (1 <= 1.045)
    assert metrics.mismatch_count([11.0], [10.0], 0, 0.095) == 1
    assert metrics.mismatch_count([10.0], [11.0], 0, 0.095) == 0
    assert metrics.mismatch_count([11.0], [10.0], 0.5, 0.05) == 0


def test_mean_bias_hand_computed():
    e = np.array([1, 2, 0, 0, 4], np.float32)
    a = np.array([1.3, 2, 0.5, 1e-6, 4.00001], np.float32)
    # 1.3 vs 1: relative 0.3; 2 vs 2: equal; 0.5 vs 0: |e| < FLT_EPSILON,
    # absolute 0.5 > 1e-5 counted; 1e-6 vs 0: below 1e-5, ignored;
    # 4.00001 vs 4: within 1e-8 + 1e-5 * 4. Mean over the 2 failing ones.
    one = np.float32(1)
    first = (np.float32(1.3) - one) / (one + metrics.FLT_MIN)
    expected = (np.float32(first) + np.float32(0.5)) / np.float32(2)
    assert metrics.mean_bias(a, e) == float(np.float32(expected))
    assert metrics.mean_bias(a, e) == pytest.approx(0.4, rel=1e-6)


def test_mean_bias_averages_over_failing_elements_only():
    e = np.ones(1000, np.float32)
    a = e.copy()
    a[7] = 1.3
    assert metrics.mean_bias(a, e) == pytest.approx(0.3, rel=1e-6)
    assert metrics.mean_bias(e, e) == 0.0


def test_mean_bias_nan_or_inf_in_actual_fails():
    e = np.ones(3, np.float32)
    assert metrics.mean_bias(np.array([1, np.nan, 1], np.float32), e) == \
        math.inf
    assert metrics.mean_bias(np.array([1, 1, -np.inf], np.float32), e) == \
        math.inf
    # a NaN in the reference is skipped, as in Lite
    assert metrics.mean_bias(e, np.array([1, np.nan, 1], np.float32)) == 0.0


def _lite_mean_bias(actual, expected) -> float:
    """A literal transcription of Lite's CompareData loop, in float32."""
    f32, tiny = np.float32, np.finfo(np.float32).tiny
    mean_error, count = f32(0), 0
    for a, e in zip(actual.astype(f32), expected.astype(f32)):
        tolerance = f32(1e-8) + f32(1e-5) * abs(e)
        error = abs(a - e)
        if error > tolerance:
            if abs(e) < np.finfo(f32).eps:
                if error > 1e-5:
                    mean_error = f32(mean_error + error)
                    count += 1
            else:
                mean_error = f32(mean_error + error / (abs(e) + f32(tiny)))
                count += 1
    if mean_error > 0:
        mean_error = f32(mean_error / f32(count))
    return float(mean_error)


def test_mean_bias_matches_lite_loop_bit_for_bit():
    rng = np.random.default_rng(3)
    e = rng.normal(size=500).astype(np.float32)
    e[::50] = 0
    a = (e * (1 + rng.normal(scale=1e-3, size=500))).astype(np.float32)
    a[::37] += np.float32(1e-4)
    assert metrics.mean_bias(a, e) == _lite_mean_bias(a, e)


def test_stats():
    s = metrics.stats(np.array([1, 2, 3, 4], np.float32))
    assert (s["min"], s["max"], s["mean"]) == (1.0, 4.0, 2.5)
    assert s["std"] == pytest.approx(math.sqrt(1.25))
    assert (s["nan"], s["inf"]) == (0, 0)
    s = metrics.stats(np.array([1, np.nan, np.inf], np.float32))
    assert (s["nan"], s["inf"]) == (1, 1) and math.isnan(s["mean"])
    assert metrics.stats(np.zeros((0, 3)))["min"] is None
    assert metrics.stats(np.array([True, False]))["mean"] == 0.5


def test_shape_mismatch_is_an_error():
    with pytest.raises(ValueError, match="element counts"):
        metrics.max_abs_err(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="element counts"):
        metrics.mean_bias(np.ones(3), np.ones(4))
