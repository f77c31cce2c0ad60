"""The special functions (Lgamma, Digamma, Zeta, Igamma, Igammac, Betainc and the
Bessel family, issue 14) in float64 against independent paths: Python's math.lgamma,
closed forms at special points, recurrences, reflections, Wronskians and the Bessel
integrals (the trapezoid rule over a period, exact to rounding), each with its stated
accuracy; then their float dtypes and MindSpore 2.7.1's values at the edges."""
import math

import numpy as np
import pytest

from refinfer.ops._ref import special
from refinfer.registry import get_op

EULER = 0.5772156649015329


def ref(name, *args):
    return get_op(name).reference(*(np.asarray(a, np.float64) for a in args))


def test_lgamma_against_math_lgamma():
    x = np.concatenate([np.linspace(-30.3, 40.1, 7001), [1e-300, 1e-8, 0.5, 1.0, 2.0,
                                                          171.5, 1e5, 1e300]])
    expected = np.array([math.lgamma(v) for v in x])
    error = np.abs(ref("Lgamma", x) - expected) / np.maximum(1.0, np.abs(expected))
    assert error.max() < 2e-14
    assert ref("Lgamma", [0.0, -3.0, np.inf, -np.inf]).tolist() == [np.inf] * 4


def test_digamma_closed_forms_and_recurrence():
    harmonic = np.cumsum(1.0 / np.arange(1, 30))
    np.testing.assert_allclose(ref("Digamma", np.arange(2, 31)), harmonic - EULER,
                               rtol=1e-15, atol=0)
    np.testing.assert_allclose(ref("Digamma", [1.0, 0.5]),
                               [-EULER, -EULER - 2 * math.log(2)], rtol=1e-15)
    x = np.random.default_rng(1).uniform(-9.7, 25.0, 500)
    np.testing.assert_allclose(ref("Digamma", x + 1) - ref("Digamma", x), 1 / x,
                               rtol=1e-11, atol=1e-12)
    got = ref("Digamma", [0.0, -2.0, -np.inf, np.inf])
    assert got[0] == -np.inf and np.isnan(got[1:3]).all() and got[3] == np.inf


def test_zeta_closed_forms_and_shift():
    np.testing.assert_allclose(ref("Zeta", [2.0, 4.0, 2.0, 3.0], [1.0, 1.0, 0.5, 2.0]),
                               [math.pi ** 2 / 6, math.pi ** 4 / 90, math.pi ** 2 / 2,
                                1.2020569031595942 - 1], rtol=1e-15)
    rng = np.random.default_rng(2)
    s, q = rng.uniform(1.05, 12.0, 300), rng.uniform(0.05, 30.0, 300)
    np.testing.assert_allclose(ref("Zeta", s, q) - ref("Zeta", s, q + 1), q ** -s,
                               rtol=1e-10, atol=1e-13)
    # q < 0 with an integer exponent: the shift from q = 0.5
    np.testing.assert_allclose(ref("Zeta", [2.0, 3.0], [-0.5, -1.5]),
                               [math.pi ** 2 / 2 + 4, 7 * 1.2020569031595942 - 8 - 8 / 27],
                               rtol=1e-14)
    got = ref("Zeta", [1.0, 0.5, 2.0, 2.5], [1.0, 1.0, -1.0, -1.5])
    assert got[0] == np.inf and np.isnan(got[1]) and got[2] == np.inf and np.isnan(got[3])


def test_incomplete_gamma_closed_forms():
    x = np.random.default_rng(3).uniform(0.0, 40.0, 400)
    np.testing.assert_allclose(ref("Igamma", np.ones_like(x), x), -np.expm1(-x),
                               rtol=1e-13, atol=0)
    np.testing.assert_allclose(ref("Igammac", np.ones_like(x), x), np.exp(-x), rtol=3e-13)
    erf = np.array([math.erf(math.sqrt(v)) for v in x])
    np.testing.assert_allclose(ref("Igamma", np.full_like(x, 0.5), x), erf, rtol=1e-13)
    a = np.random.default_rng(4).uniform(0.05, 60.0, 400)
    total = ref("Igamma", a, x) + ref("Igammac", a, x)
    np.testing.assert_allclose(total, 1.0, rtol=1e-13)
    # P(a + 1, x) = P(a, x) - x^a e^-x / Gamma(a + 1)
    step = np.exp(a * np.log(x) - x - np.array([math.lgamma(v + 1) for v in a]))
    np.testing.assert_allclose(ref("Igamma", a + 1, x), ref("Igamma", a, x) - step,
                               rtol=1e-11, atol=1e-14)
    edges = [ref(op, [0.0, 1.0, 2.0, 1.0], [1.0, 0.0, np.inf, -1.0])
             for op in ("Igamma", "Igammac")]
    np.testing.assert_array_equal(edges[0], [np.nan, 0.0, 1.0, np.nan])
    np.testing.assert_array_equal(edges[1], [np.nan, 1.0, np.nan, np.nan])


def test_each_element_stops_iterating_when_it_converges():
    """Next to elements that take longer, an element's series or continued
    fraction stops once it has converged (as Cephes's loops): iterated on,
    its rounding errors piled up (Igamma 1.4e-13, Betainc 2.3e-9 relative
    off these values, from mpmath at 40 digits), beside 40000 others."""
    rng = np.random.default_rng(1)
    others = [np.concatenate([rng.uniform(0, 5, 20000), 10 ** rng.uniform(-3, 4, 20000)])
              for _ in range(2)]
    got = ref("Igamma", np.r_[1.4139499983651778, others[0]],
              np.r_[1.5148705647450607, others[1]])
    np.testing.assert_allclose(got[0], 0.6423988460082851, rtol=2e-15)
    got = ref("Betainc", np.r_[2.155412879876737, others[0]],
              np.r_[6.818309372769171e-05, others[1]],
              np.r_[0.8429920334747653, rng.uniform(0, 1, 40000)])
    np.testing.assert_allclose(got[0], 6.38249572080119e-05, rtol=1e-10)


def test_incomplete_beta_closed_forms():
    rng = np.random.default_rng(5)
    x, b = rng.uniform(0.0, 1.0, 300), rng.uniform(0.1, 20.0, 300)
    np.testing.assert_allclose(ref("Betainc", np.ones_like(x), b, x), -np.expm1(
        b * np.log1p(-x)), rtol=1e-12)
    np.testing.assert_allclose(ref("Betainc", b, np.ones_like(x), x), x ** b, rtol=1e-12)
    a = rng.uniform(0.1, 20.0, 300)
    np.testing.assert_allclose(ref("Betainc", a, b, x), 1 - ref("Betainc", b, a, 1 - x),
                               rtol=1e-11, atol=1e-13)
    # integer a, b: a binomial tail
    n = 2 + 3 - 1
    binomial = sum(math.comb(n, j) * x ** j * (1 - x) ** (n - j) for j in range(2, n + 1))
    np.testing.assert_allclose(ref("Betainc", np.full_like(x, 2.0), np.full_like(x, 3.0),
                                   x), binomial, rtol=1e-12, atol=1e-15)
    got = ref("Betainc", [2.0, 2.0, 0.0, 2.0], [3.0, 3.0, 1.0, 3.0], [0.0, 1.0, 0.5, 1.5])
    np.testing.assert_array_equal(got, [0.0, 1.0, np.nan, np.nan])


def bessel_integral(order, x, modified=False):
    """J_n(x) = 1/(2 pi) int_0^2pi cos(n t - x sin t) dt, I_n(x) = 1/(2 pi)
    int_0^2pi e^(x cos t) cos(n t) dt: the trapezoid rule over a period with
    enough points is exact to rounding."""
    t = np.linspace(0.0, 2 * np.pi, 4096, endpoint=False)[:, None]
    if modified:
        return np.mean(np.exp(x * np.cos(t)) * np.cos(order * t), axis=0)
    return np.mean(np.cos(order * t - x * np.sin(t)), axis=0)


@pytest.mark.parametrize("order", [0, 1])
def test_bessel_j_and_i_against_their_integrals(order):
    x = np.concatenate([np.linspace(-60.0, 60.0, 2401), [1e-6, 11.999, 12.001]])
    np.testing.assert_allclose(ref(f"BesselJ{order}", x), bessel_integral(order, x),
                               rtol=0, atol=1e-12)
    x = np.linspace(-40.0, 40.0, 1601)
    np.testing.assert_allclose(ref(f"BesselI{order}e", x),
                               bessel_integral(order, x, True) * np.exp(-np.abs(x)),
                               rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(ref(f"BesselI{order}", x), bessel_integral(order, x, True),
                               rtol=1e-13, atol=1e-15)


def test_bessel_series_stop_where_their_terms_vanish(monkeypatch):
    """J's and Y's power series end once no term is above TINY_TERM, I's
    once none is above TINY_TERM of its sum: 3 million elements of
    BesselY0 (fuzz seed 85) took 60 terms of every series, I 120; on |x|
    <= 2, 12 are enough, and the values still meet the integrals'."""
    steps = []
    negligible = special._negligible
    monkeypatch.setattr(special, "_negligible",
                        lambda *term: steps.append(1) or negligible(*term))
    x = np.linspace(-2.0, 2.0, 401)
    np.testing.assert_allclose(ref("BesselJ0", x), bessel_integral(0, x),
                               rtol=0, atol=1e-12)
    assert 0 < len(steps) <= 12
    steps.clear()
    np.testing.assert_allclose(ref("BesselI1", x), bessel_integral(1, x, True),
                               rtol=1e-13, atol=1e-15)
    assert 0 < len(steps) <= 12


def test_bessel_wronskians():
    x = np.concatenate([np.geomspace(1e-4, 200.0, 900), [11.999, 12.0, 12.001]])
    j0, j1, y0, y1 = (ref(f"Bessel{n}", x) for n in ("J0", "J1", "Y0", "Y1"))
    np.testing.assert_allclose((j1 * y0 - j0 * y1) * np.pi * x / 2, 1.0, rtol=1e-10)
    i0, i1, k0, k1 = (ref(f"Bessel{n}", x) for n in ("I0e", "I1e", "K0e", "K1e"))
    np.testing.assert_allclose((i0 * k1 + i1 * k0) * x, 1.0, rtol=1e-13)
    np.testing.assert_allclose(ref("BesselK0", x), k0 * np.exp(-x), rtol=1e-14)


def test_bessel_edges_like_mindspore():
    x = [0.0, -1.5, np.inf, np.nan]
    expected = {"J0": [1.0, 0.5118276717359181, np.nan, np.nan],
                "Y0": [-np.inf, -np.inf, np.nan, np.nan],
                "Y1": [np.nan, -np.inf, np.nan, np.nan],
                "I0e": [1.0, 0.3674336, 0.0, np.nan],
                "K1": [np.inf, np.inf, 0.0, np.nan]}
    for name, values in expected.items():
        np.testing.assert_allclose(ref(f"Bessel{name}", x), values, rtol=1e-7)


@pytest.mark.parametrize("name", ["Lgamma", "Digamma", "BesselJ1", "BesselK0e"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_narrow_floats_are_rounded_from_float64(name, dtype):
    x = np.linspace(0.3, 6.0, 12).astype(dtype)
    got = get_op(name).reference(x)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, ref(name, x.astype(np.float64)).astype(dtype))
    with pytest.raises(TypeError, match=f"{name}: operands must be float tensors, "
                                        "got int32"):
        get_op(name).reference(np.arange(3, dtype=np.int32))
