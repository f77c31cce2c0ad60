"""Special functions NumPy lacks, in float64 on whole arrays (Lgamma, Digamma,
Zeta, Igamma, Igammac, Betainc and the Bessel family).

Each follows the classic algorithm MindSpore's CPU kernels (Eigen, Cephes)
use or an equally accurate one, so its float64 result is within a few units
of 1e-15 relative of the true value unless a function's docstring says
otherwise; the ops round it to their dtype. Iterations run on every element
at once, masked where an element has converged.
"""
from __future__ import annotations

import math

import numpy as np

from .common import as_result
from .math import common_dtype

EPS = np.finfo(np.float64).eps
EULER = 0.5772156649015329          # Euler-Mascheroni constant
MAX_ITERATIONS = 2000


def in_float64(op: str, fn, *operands) -> np.ndarray:
    """``fn`` of the operands (tensors or Python numbers, promoted to one
    float dtype) computed in float64 and rounded to that dtype."""
    operands = common_dtype(*operands)
    dtype = operands[0].dtype
    if dtype.kind != "f":
        raise TypeError(f"{op}: operands must be float tensors, got {dtype}")
    with np.errstate(all="ignore"):
        return as_result(fn(*(v.astype(np.float64) for v in operands)), dtype)


def _pole(x: np.ndarray) -> np.ndarray:
    """Where x is 0 or a negative integer (the poles of Gamma)."""
    return (x <= 0) & (x == np.floor(x))


# Stirling's series of ln Gamma: B_2k / (2k (2k - 1)) for k = 1..7.
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156)
ASYMPTOTIC_FROM = 10.0      # lgamma and digamma: the recurrence up to here


def lgamma(x: np.ndarray) -> np.ndarray:
    """ln |Gamma(x)|: the recurrence ln Gamma(y) = ln Gamma(y + 1) - ln y up
    to y >= 10, then Stirling's series (y - 1/2) ln y - y + ln(2 pi) / 2 +
    sum B_2k / (2k (2k-1) y^(2k-1)); the reflection ln(pi / |sin(pi x)|) -
    ln Gamma(1 - x) below 0.5. ~1e-15 relative (2e-15 absolute near the
    roots 1 and 2); +inf at the poles (0, -1, ...) and at +-inf."""
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        y = np.where(x < 0.5, 1 - x, x)
        product = np.ones_like(y)
        while np.any(small := y < ASYMPTOTIC_FROM):
            product = np.where(small, product * y, product)
            y = np.where(small, y + 1, y)
        inverse = 1 / y
        series = np.zeros_like(y)
        for coefficient in reversed(_STIRLING):
            series = series * inverse * inverse + coefficient
        value = ((y - 0.5) * np.log(y) - y + 0.5 * np.log(2 * np.pi)
                 + series * inverse - np.log(product))
        reflected = np.log(np.pi / np.abs(np.sin(np.pi * _reduced(x)))) - value
        value = np.where(x < 0.5, reflected, value)
    return np.where(_pole(x) | np.isinf(x), np.inf, value)


# Asymptotic series of digamma: B_2k / (2k) for k = 1..7 (B: Bernoulli).
_DIGAMMA_SERIES = (1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760, 1 / 12)


def digamma(x: np.ndarray) -> np.ndarray:
    """psi(x) = d/dx ln Gamma(x). Reflection psi(x) = psi(1 - x) - pi /
    tan(pi x) below 0.5, the recurrence psi(y) = psi(y + 1) - 1 / y up to
    y >= 10, then the asymptotic series ln y - 1 / (2y) - sum B_2k / (2k
    y^2k). -inf at 0, NaN at the other poles (-1, -2, ...) and for -inf
    (MindSpore 2.7.1 CPU); +inf for +inf."""
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        reflect = x < 0.5
        y = np.where(reflect, 1 - x, x)
        shift = np.zeros_like(y)
        while np.any(small := y < ASYMPTOTIC_FROM):
            shift -= np.where(small, 1 / y, 0.0)
            y = np.where(small, y + 1, y)
        inv2 = 1 / (y * y)
        series = np.zeros_like(y)
        for coefficient in reversed(_DIGAMMA_SERIES):
            series = (series + coefficient) * inv2
        psi = np.log(y) - 0.5 / y - series + shift
        psi = np.where(reflect, psi - np.pi / np.tan(np.pi * _reduced(x)), psi)
    psi = np.where(_pole(x) | (x == -np.inf), np.nan, psi)
    return np.where(x == 0, -np.inf, psi)


def _reduced(x: np.ndarray) -> np.ndarray:
    """x - round(x), exact: tan(pi x) and |sin(pi x)| of it are those of x,
    without the rounding of pi x for big x or x near an integer."""
    return x - np.round(x)


# Euler-Maclaurin coefficients of the Hurwitz zeta: (2k)! / B_2k (Cephes).
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17,
           -7.1661652561756670113e18)


def zeta(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The Hurwitz zeta function sum_{k >= 0} (q + k) ** -x, as Cephes's
    zeta: the first terms summed directly until q + k >= 9 (at least 9
    terms), then the Euler-Maclaurin tail with 12 Bernoulli terms. x = 1 is
    +inf, x < 1 NaN; q a pole (0, -1, ...) is +inf, q < 0 with a
    non-integer x NaN."""
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    with np.errstate(all="ignore"):
        direct = np.maximum(9, np.ceil(9 - q)).astype(np.int64)
        direct = np.where(np.isfinite(q), direct, 0)
        total = np.zeros(x.shape)
        for k in range(int(direct.max(initial=0)) + 1):
            total += np.where(k <= direct, (q + k) ** -x, 0.0)
        w = q + direct
        b = w ** -x
        total += b * w / (x - 1) - 0.5 * b
        a, k, done = np.ones(x.shape), 0.0, np.zeros(x.shape, bool)
        for coefficient in _ZETA_A:
            a = a * (x + k)
            b = b / w
            term = a * b / coefficient
            total = np.where(done, total, total + term)
            done |= np.abs(term / total) < EPS
            k += 1
            a = a * (x + k)
            b = b / w
            k += 1
        total = np.where(x == 1, np.inf, np.where(x < 1, np.nan, total))
        total = np.where(_pole(q) & (x >= 1), np.inf, total)
        return np.where((q < 0) & ~_pole(q) & (x != np.floor(x)), np.nan, total)


def _gamma_prefactor(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """x^a e^-x / Gamma(a), through logarithms."""
    return np.exp(a * np.log(x) - x - lgamma(a))


def _until_converged(step, values: tuple, out: int) -> np.ndarray:
    """Iterate ``step(k, *values) -> (values, going)`` over 1-D arrays,
    MAX_ITERATIONS times at most, each element until ``going`` is False for
    it (NaN counts as done), then left out of the next iterations (as
    Cephes's loops stop element by element); returns values[out] as each
    element last had it."""
    result, live = values[out].copy(), np.arange(values[out].size)
    for k in range(MAX_ITERATIONS):
        values, going = step(k, *values)
        if not going.all():
            result[live[~going]] = values[out][~going]
            live, values = live[going], tuple(v[going] for v in values)
            if not live.size:
                break
    result[live] = values[out]
    return result


def _lower_series(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """P(a, x) = x^a e^-x / Gamma(a + 1) sum_n x^n / ((a+1)...(a+n)), for
    1-D a and x, each sum until its term falls below EPS of it."""
    def step(_, r, term, total, x):
        r = r + 1
        term = term * x / r
        total = total + term
        return (r, term, total, x), term > EPS * total
    total = _until_converged(step, (a.copy(), np.ones_like(a), np.ones_like(a), x), 2)
    return total * _gamma_prefactor(a, x) / a


def _upper_fraction(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Q(a, x) by Cephes's continued fraction (igamc), for 1-D a and x with
    x > 1 and x > a, each until it changes by EPS at most."""
    big, biginv = 4.503599627370496e15, 2.22044604925031308085e-16

    def step(_, c, y, z, pkm2, pkm1, qkm2, qkm1, answer):
        c, y, z = c + 1, y + 1, z + 2
        yc = y * c
        pk, qk = pkm1 * z - pkm2 * yc, qkm1 * z - qkm2 * yc
        ratio = np.where(qk != 0, pk / np.where(qk != 0, qk, 1), answer)
        change = np.abs((answer - ratio) / ratio)
        scale = np.where(np.abs(pk) > big, biginv, 1.0)
        return (c, y, z, pkm1 * scale, pk * scale, qkm1 * scale, qk * scale,
                ratio), change > EPS
    y, z = 1 - a, x + 2 - a
    pkm1, qkm1 = x + 1, z * x
    answer = _until_converged(step, (np.zeros_like(a), y, z, np.ones_like(a), pkm1,
                                     x.copy(), qkm1, pkm1 / qkm1), 7)
    return answer * _gamma_prefactor(a, x)


def igamma(a: np.ndarray, x: np.ndarray, upper: bool = False) -> np.ndarray:
    """The regularised incomplete gamma functions P(a, x) = gamma(a, x) /
    Gamma(a) (lower) or Q(a, x) = 1 - P (``upper``), as Eigen's igamma and
    igammac: the series for x <= 1 or x <= a, else the continued fraction
    (each computes the other as 1 - it), each only where it is used. x = 0
    gives P = 0, x = inf P = 1 but Q = NaN (MindSpore 2.7.1 CPU); a <= 0
    or x < 0 is NaN."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    with np.errstate(all="ignore"):
        computed = (a > 0) & (x > 0) & np.isfinite(x)
        series = computed & ((x <= 1) | (x <= a))
        fraction = computed & ~series
        lower = np.zeros(x.shape)
        lower[series] = _lower_series(a[series], x[series])
        upper_q = _upper_fraction(a[fraction], x[fraction])
        lower[fraction] = 1 - upper_q
        lower[x == np.inf] = 1.0
        result = 1 - lower if upper else lower
        if upper:       # the fraction's own Q where it ran: no 1 - (1 - Q)
            result[fraction] = upper_q
            result[x == np.inf] = np.nan
        return np.where((a <= 0) | (x < 0) | np.isnan(a) | np.isnan(x), np.nan, result)


def _beta_fraction(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The continued fraction of I_x(a, b) (modified Lentz, as Numerical
    Recipes' betacf), for 1-D a, b, x with x < (a + 1) / (a + b + 2), each
    until a step changes it by EPS at most."""
    tiny = 1e-300

    def step(k, a, b, x, qab, qap, qam, c, d, h):
        m = k + 1
        m2 = 2 * m
        for numerator in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                          -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1 + numerator * d
            d = 1 / np.where(np.abs(d) < tiny, tiny, d)
            c = 1 + numerator / c
            c = np.where(np.abs(c) < tiny, tiny, c)
            change = d * c
            h = h * change
        return (a, b, x, qab, qap, qam, c, d, h), np.abs(change - 1) > EPS
    qab, qap, qam = a + b, a + 1, a - 1
    d = 1 - qab * x / qap
    d = 1 / np.where(np.abs(d) < tiny, tiny, d)
    return _until_converged(step, (a, b, x, qab, qap, qam, np.ones_like(a), d,
                                   d.copy()), 8)


def betainc(a: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The regularised incomplete beta function I_x(a, b) = B(x; a, b) /
    B(a, b): x^a (1-x)^b / (a B(a, b)) times a continued fraction, or 1 -
    the same for (b, a, 1 - x) where that converges faster, each only where
    it is used. x = 0 gives 0, x = 1 gives 1; a <= 0, b <= 0 or x outside
    [0, 1] is NaN."""
    a, b, x = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, x)))
    with np.errstate(all="ignore"):
        computed = (a > 0) & (b > 0) & (x > 0) & (x < 1)
        front = np.exp(lgamma(a + b) - lgamma(a) - lgamma(b)
                       + a * np.log(x) + b * np.log1p(-x))
        direct = computed & (x < (a + 1) / (a + b + 2))
        swapped = computed & ~direct
        value = np.zeros(x.shape)
        value[direct] = front[direct] * _beta_fraction(
            a[direct], b[direct], x[direct]) / a[direct]
        value[swapped] = 1 - front[swapped] * _beta_fraction(
            b[swapped], a[swapped], 1 - x[swapped]) / b[swapped]
        value[x == 1] = 1.0
        bad = (a <= 0) | (b <= 0) | (x < 0) | (x > 1) | np.isnan(a + b + x)
        return np.where(bad, np.nan, value)


# -- Bessel functions of order 0 and 1 ----------------------------------------------
SERIES_LIMIT = 12.0     # J, Y: power series up to here, Hankel's expansion above
I_SERIES_LIMIT = 30.0   # I: power series up to here, the asymptotic expansion above
TERMS = 60
# The series stop once no term is above TINY_TERM (J, Y) or TINY_TERM of
# its sum (I, positive terms): it adds nothing at their accuracies, and the
# terms only shrink from there (a term grows only while x/2 > k + 1, and
# then it is above 1 and not the sum's smallest part): 20 terms of 60 (J,
# Y) or 120 (I) on |x| <= 5.
TINY_TERM = 1e-17


def _hankel_terms(order: int, x: np.ndarray, count: int = 24):
    """The terms prod_{j<=k} (4 order^2 - (2j-1)^2) / (k! (8x)^k), k = 0.."""
    mu, term = 4.0 * order * order, np.ones_like(x)
    terms = [term]
    for k in range(1, count):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8 * x)
        terms.append(term)
    return terms


def _j_series(order: int, x: np.ndarray) -> np.ndarray:
    """J_order(x) = sum_k (-1)^k (x/2)^(2k+order) / (k! (k+order)!)."""
    half = x / 2
    term = half ** order / math.factorial(order)
    total = term.copy()
    for k in range(1, TERMS):
        term = -term * half * half / (k * (k + order))
        total += term
        if _negligible(term):
            break
    return total


def _negligible(term: np.ndarray, scale=1.0) -> bool:
    """Whether no element of a series' term is above TINY_TERM (times
    ``scale``: each element's sum, for a series of positive terms)."""
    return not term.size or bool((np.abs(term) <= TINY_TERM * scale).all())


def _y_series(order: int, x: np.ndarray) -> np.ndarray:
    """Y_order(x), x > 0, by its power series (A&S 9.1.11):
    (2/pi) ln(x/2) J_n - (1/pi) (x/2)^-n sum_{k<n} (n-k-1)!/k! (x^2/4)^k
    - (1/pi) (x/2)^n sum_k (psi(k+1) + psi(n+k+1)) (-x^2/4)^k / (k! (n+k)!)."""
    half = x / 2
    total = 2 / np.pi * np.log(half) * _j_series(order, x)
    if order == 1:
        total -= 1 / (np.pi * half)
    term = half ** order / math.factorial(order)
    psi_k, psi_nk = -EULER, -EULER + sum(1 / j for j in range(1, order + 1))
    tail = (psi_k + psi_nk) * term
    for k in range(1, TERMS):
        term = -term * half * half / (k * (k + order))
        psi_k, psi_nk = psi_k + 1 / k, psi_nk + 1 / (k + order)
        tail += (psi_k + psi_nk) * term
        if _negligible(term):
            break
    return total - tail / np.pi


def _hankel(order: int, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(J_order(x), Y_order(x)) for large x > 0 by Hankel's expansion:
    sqrt(2 / (pi x)) (P cos chi -+ Q sin chi), chi = x - (order/2 + 1/4) pi."""
    terms = _hankel_terms(order, x)
    p = sum(t * (-1) ** (k // 2) for k, t in enumerate(terms) if k % 2 == 0)
    q = sum(t * (-1) ** (k // 2) for k, t in enumerate(terms) if k % 2 == 1)
    chi = x - (order / 2 + 0.25) * np.pi
    scale = np.sqrt(2 / (np.pi * x))
    return (scale * (p * np.cos(chi) - q * np.sin(chi)),
            scale * (p * np.sin(chi) + q * np.cos(chi)))


def bessel_j(order: int, x: np.ndarray) -> np.ndarray:
    """J_0 (even) or J_1 (odd); absolute error below 1e-12. NaN at +-inf
    (MindSpore 2.7.1 CPU)."""
    x = np.asarray(x, np.float64)
    size = np.abs(x)
    value = np.full(x.shape, np.nan)     # (each element by one method only)
    small = size <= SERIES_LIMIT
    large = (size > SERIES_LIMIT) & np.isfinite(size)
    with np.errstate(all="ignore"):
        value[small] = _j_series(order, size[small])
        value[large] = _hankel(order, size[large])[0]
    return np.where(x < 0, (-1) ** order * value, value)


def bessel_y(order: int, x: np.ndarray) -> np.ndarray:
    """Y_0 or Y_1 of x > 0 (absolute error below 1e-10). As MindSpore 2.7.1
    CPU: -inf for x < 0, and at 0 -inf (Y_0) or NaN (Y_1); NaN at +inf."""
    x = np.asarray(x, np.float64)
    value = np.full(x.shape, np.nan)     # (each element by one method only)
    small = (x > 0) & (x <= SERIES_LIMIT)
    large = (x > SERIES_LIMIT) & np.isfinite(x)
    with np.errstate(all="ignore"):
        value[small] = _y_series(order, x[small])
        value[large] = _hankel(order, x[large])[1]
    at_zero = -np.inf if order == 0 else np.nan
    return np.where(x == 0, at_zero, np.where(x < 0, -np.inf, value))


def bessel_i_scaled(order: int, x: np.ndarray) -> np.ndarray:
    """exp(-|x|) I_order(x): I_0 even, I_1 odd. The power series sum_k
    (x/2)^(2k+order) / (k! (k+order)!) up to |x| = 30, the asymptotic
    expansion sum_k (-1)^k terms_k / sqrt(2 pi x) above."""
    x = np.asarray(x, np.float64)
    size = np.abs(x)
    value = np.full(x.shape, np.nan)     # (each element by one method only)
    small = size <= I_SERIES_LIMIT
    large = (size > I_SERIES_LIMIT) & np.isfinite(size)
    with np.errstate(all="ignore"):
        inner = size[small]
        half = inner / 2
        term = half ** order / math.factorial(order)
        series = term.copy()
        for k in range(1, 2 * TERMS):
            term = term * half * half / (k * (k + order))
            series += term
            if _negligible(term, series):   # (the rest are smaller still)
                break
        value[small] = series * np.exp(-inner)
        outer = size[large]
        terms = _hankel_terms(order, outer)
        value[large] = sum(t * (-1) ** k for k, t in enumerate(terms)) \
            / np.sqrt(2 * np.pi * outer)
    value[size == np.inf] = 0.0
    return np.where(x < 0, (-1) ** order * value, value)


K_STEP = 0.125  # the trapezoid step of K's integral for x <= 1, K_STEP / sqrt(x) above


def bessel_k_scaled(order: int, x: np.ndarray) -> np.ndarray:
    """exp(x) K_order(x) for x > 0: the integral int_0^inf exp(-x (cosh t - 1))
    cosh(order t) dt by the trapezoid rule, which converges exponentially
    for this integrand (analytic in a strip, decaying doubly exponentially);
    the step shrinks as 1 / sqrt(x), the integrand's width for large x.
    +inf at 0 and below (MindSpore 2.7.1 CPU), 0 at +inf."""
    x = np.asarray(x, np.float64)
    positive = (x > 0) & np.isfinite(x)
    inner = np.where(positive, x, 1.0)
    step = K_STEP / np.sqrt(np.maximum(inner, 1.0))
    # beyond t_max, x (cosh t - 1) > 45: the integrand is below e^-45. The
    # elements go by steps needed, most first, so that step k sums only
    # those that need it (a prefix): small x needs 100+ steps, most fewer.
    steps = np.ceil(np.arccosh(1 + 45 / inner) / step).ravel()
    by_need = np.argsort(-steps, kind="stable")
    inner, step, steps = inner.ravel()[by_need], step.ravel()[by_need], \
        steps[by_need]
    with np.errstate(all="ignore"):
        total = 0.5 * np.ones_like(inner)
        for k in range(1, int(steps.max(initial=0)) + 1):
            n = np.searchsorted(-steps, -k, side="right")  # steps >= k
            t = k * step[:n]
            total[:n] += np.exp(-inner[:n] * (np.cosh(t) - 1)) \
                * np.cosh(order * t)
    summed = np.empty_like(total)
    summed[by_need] = total * step
    value = np.where(positive, summed.reshape(x.shape), 0.0)
    return np.where(x <= 0, np.inf, np.where(np.isnan(x), np.nan, value))
