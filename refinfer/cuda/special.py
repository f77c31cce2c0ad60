"""The ``cuda`` kernels of the special functions (Lgamma, Digamma, Zeta,
Igamma, Igammac, Betainc, Mvlgamma and the Bessel family): one broadcast
kernel of up to three operands, the function an op code, a thread per
element.

Each function is the scalar form of its reference's algorithm
(ops/_ref/special.py: the same recurrences, series, continued fractions,
constants and edge values), computed in float64 as the references compute
and rounded to the operands' dtype on the store. The references' masked
whole-array loops stop when every element has converged; here each
element stops on its own, which changes results by a few units of 1e-16.
Mvlgamma is the reference's sum of ``math.lgamma``; an element it refuses
(not above (p - 1) / 2) sets a flag, read back, and the kernel declines so
the CPU kernel raises the reference's error. The K functions decline a
subnormal x the same way: their integral's range, acosh(1 + 45 / x), has
no finite bound there (the reference fails on it too).

The result's dtype and the references' refusals (integer operands) come
from the reference run on one-element samples; float16 is declined.
Importing this module declares them."""
from __future__ import annotations

import math

import numpy as np

from refinfer import registry
from refinfer.ops._ref.special import (_DIGAMMA_SERIES, _STIRLING, _ZETA_A,
                                       ASYMPTOTIC_FROM, EPS, EULER, I_SERIES_LIMIT,
                                       K_STEP, MAX_ITERATIONS, SERIES_LIMIT, TERMS)

from . import device
from .device import cuda, dmath
from .integer import sample, broadcast_table
from .moments import offset
from .program import rint

(LGAMMA, DIGAMMA, ZETA, IGAMMA, IGAMMAC, BETAINC, MVLGAMMA, BESSEL_J0, BESSEL_J1,
 BESSEL_Y0, BESSEL_Y1, BESSEL_I0, BESSEL_I0E, BESSEL_I1, BESSEL_I1E, BESSEL_K0,
 BESSEL_K0E, BESSEL_K1, BESSEL_K1E) = range(19)
STIRLING = tuple(reversed(_STIRLING))           # Horner's order
DIGAMMA_SERIES = tuple(reversed(_DIGAMMA_SERIES))
HANKEL_TERMS = 24
HALF_LOG_TWO_PI = 0.5 * math.log(2 * math.pi)
BIG, BIG_INVERSE = 4.503599627370496e15, 2.22044604925031308085e-16   # Cephes igamc
TINY = 1e-300       # the modified Lentz method's floor


@device.device_function
def _pole(x):
    """Whether x is 0 or a negative integer (a pole of Gamma)."""
    return x <= 0 and x == dmath.floor(x)


@device.device_function
def lgamma(x):
    """ln |Gamma(x)| as special.lgamma: the recurrence up to 10, Stirling's
    series, the reflection below 0.5; +inf at the poles and +-inf."""
    if _pole(x) or x == math.inf or x == -math.inf:
        return math.inf
    y = 1 - x if x < 0.5 else x
    product = 1.0
    while y < ASYMPTOTIC_FROM:
        product *= y
        y += 1
    inverse = 1 / y
    series = 0.0
    for coefficient in STIRLING:
        series = series * inverse * inverse + coefficient
    value = ((y - 0.5) * dmath.log(y) - y + HALF_LOG_TWO_PI + series * inverse
             - dmath.log(product))
    if x < 0.5:
        return dmath.log(math.pi / abs(dmath.sin(math.pi * (x - rint(x))))) - value
    return value


@device.device_function
def digamma(x):
    """psi(x) as special.digamma: the reflection below 0.5, the recurrence
    up to 10, the asymptotic series; -inf at 0, NaN at the other poles and
    -inf."""
    if x == 0:
        return -math.inf
    if _pole(x) or x == -math.inf:
        return math.nan
    y = 1 - x if x < 0.5 else x
    shift = 0.0
    while y < ASYMPTOTIC_FROM:
        shift -= 1 / y
        y += 1
    inverse_square = 1 / (y * y)
    series = 0.0
    for coefficient in DIGAMMA_SERIES:
        series = (series + coefficient) * inverse_square
    psi = dmath.log(y) - 0.5 / y - series + shift
    if x < 0.5:
        psi -= math.pi / dmath.tan(math.pi * (x - rint(x)))
    return psi


@device.device_function
def zeta(x, q):
    """The Hurwitz zeta function as special.zeta (Cephes): at least 9 terms
    summed directly, then the Euler-Maclaurin tail."""
    if x == 1:
        return math.inf
    if x < 1:
        return math.nan
    if _pole(q):
        return math.inf
    if q < 0 and x != dmath.floor(x):
        return math.nan
    direct = 0
    if q - q == 0:                              # finite
        direct = int(dmath.ceil(9 - q)) if 9 - q > 9 else 9
    total = 0.0
    for k in range(direct + 1):
        total += (q + k) ** -x
    w = q + direct
    b = w ** -x
    total += b * w / (x - 1) - 0.5 * b
    a, k = 1.0, 0.0
    for coefficient in _ZETA_A:
        a *= x + k
        b /= w
        term = a * b / coefficient
        total += term
        if abs(term / total) < EPS:
            break
        k += 1
        a *= x + k
        b /= w
        k += 1
    return total


@device.device_function
def _gamma_prefactor(a, x):
    """x^a e^-x / Gamma(a), through logarithms."""
    return dmath.exp(a * dmath.log(x) - x - lgamma(a))


@device.device_function
def _lower_series(a, x):
    """P(a, x) by its series (special._lower_series)."""
    r, term, total = a, 1.0, 1.0
    for _ in range(MAX_ITERATIONS):
        r += 1
        term *= x / r
        total += term
        if not term > EPS * total:
            break
    return total * _gamma_prefactor(a, x) / a


@device.device_function
def _upper_fraction(a, x):
    """Q(a, x) by Cephes's continued fraction (special._upper_fraction)."""
    y, z, c = 1 - a, x + 2 - a, 0.0
    pkm2, qkm2, pkm1, qkm1 = 1.0, x, x + 1, z * x
    answer = pkm1 / qkm1
    for _ in range(MAX_ITERATIONS):
        c += 1
        y += 1
        z += 2
        yc = y * c
        pk, qk = pkm1 * z - pkm2 * yc, qkm1 * z - qkm2 * yc
        ratio = pk / qk if qk != 0 else answer
        change = abs((answer - ratio) / ratio)
        answer = ratio
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        if abs(pk) > BIG:
            pkm2, pkm1 = pkm2 * BIG_INVERSE, pkm1 * BIG_INVERSE
            qkm2, qkm1 = qkm2 * BIG_INVERSE, qkm1 * BIG_INVERSE
        if not change > EPS:
            break
    return answer * _gamma_prefactor(a, x)


@device.device_function
def igamma(a, x, upper):
    """P(a, x), or Q(a, x) with ``upper``, as special.igamma (Eigen's)."""
    if a <= 0 or x < 0 or a != a or x != x:
        return math.nan
    if x == 0:
        return 1.0 if upper else 0.0
    if x == math.inf:
        return math.nan if upper else 1.0
    if x <= 1 or x <= a:
        lower = _lower_series(a, x)
        return 1 - lower if upper else lower
    fraction = _upper_fraction(a, x)
    return fraction if upper else 1 - fraction


@device.device_function
def _beta_fraction(a, b, x):
    """The continued fraction of I_x(a, b) (special._beta_fraction)."""
    qab, qap, qam = a + b, a + 1, a - 1
    c = 1.0
    d = 1 - qab * x / qap
    d = 1 / (TINY if abs(d) < TINY else d)
    h = d
    for m in range(1, MAX_ITERATIONS):
        m2 = 2 * m
        step = 1.0
        for half in range(2):
            if half == 0:
                numerator = m * (b - m) * x / ((qam + m2) * (a + m2))
            else:
                numerator = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + numerator * d
            d = 1 / (TINY if abs(d) < TINY else d)
            c = 1 + numerator / c
            c = TINY if abs(c) < TINY else c
            step = d * c
            h *= step
        if not abs(step - 1) > EPS:
            break
    return h


@device.device_function
def betainc(a, b, x):
    """I_x(a, b) as special.betainc."""
    if a <= 0 or b <= 0 or x < 0 or x > 1 or a + b + x != a + b + x:
        return math.nan
    if x == 0:
        return 0.0
    if x == 1:
        return 1.0
    front = dmath.exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * dmath.log(x)
                      + b * dmath.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


@device.device_function
def _j_series(order, x):
    """J_order(x) by its power series (special._j_series)."""
    half = x / 2
    term = half if order == 1 else 1.0
    total = term
    for k in range(1, TERMS):
        term = -term * half * half / (k * (k + order))
        total += term
    return total


@device.device_function
def _y_series(order, x):
    """Y_order(x), x > 0, by its power series (special._y_series)."""
    half = x / 2
    total = 2 / math.pi * dmath.log(half) * _j_series(order, x)
    if order == 1:
        total -= 1 / (math.pi * half)
    term = half if order == 1 else 1.0
    psi_k, psi_nk = -EULER, -EULER + order
    tail = (psi_k + psi_nk) * term
    for k in range(1, TERMS):
        term = -term * half * half / (k * (k + order))
        psi_k, psi_nk = psi_k + 1 / k, psi_nk + 1 / (k + order)
        tail += (psi_k + psi_nk) * term
    return total - tail / math.pi


@device.device_function
def _hankel(order, x, second):
    """J_order(x) (Y_order with ``second``) for large x by Hankel's
    expansion (special._hankel)."""
    mu, term = 4.0 * order * order, 1.0
    p, q = 1.0, 0.0
    for k in range(1, HANKEL_TERMS):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8 * x)
        sign = 1.0 if (k // 2) % 2 == 0 else -1.0
        if k % 2 == 0:
            p += term * sign
        else:
            q += term * sign
    chi = x - (order / 2 + 0.25) * math.pi
    scale = dmath.sqrt(2 / (math.pi * x))
    if second:
        return scale * (p * dmath.sin(chi) + q * dmath.cos(chi))
    return scale * (p * dmath.cos(chi) - q * dmath.sin(chi))


@device.device_function
def bessel_j(order, x):
    """J_0 or J_1 (special.bessel_j); NaN at +-inf."""
    size = abs(x)
    if not size < math.inf:
        return math.nan
    value = _j_series(order, size) if size <= SERIES_LIMIT else _hankel(order, size, False)
    return -value if x < 0 and order == 1 else value


@device.device_function
def bessel_y(order, x):
    """Y_0 or Y_1 (special.bessel_y): -inf below 0, -inf (Y_0) or NaN
    (Y_1) at 0, NaN at +inf."""
    if x == 0:
        return -math.inf if order == 0 else math.nan
    if x < 0:
        return -math.inf
    if not x < math.inf:
        return math.nan
    return _y_series(order, x) if x <= SERIES_LIMIT else _hankel(order, x, True)


@device.device_function
def bessel_i_scaled(order, x):
    """exp(-|x|) I_order(x) (special.bessel_i_scaled)."""
    size = abs(x)
    if x != x:
        return math.nan
    if size == math.inf:
        return 0.0
    if size <= I_SERIES_LIMIT:
        half = size / 2
        term = half if order == 1 else 1.0
        value = term
        for k in range(1, 2 * TERMS):
            term = term * half * half / (k * (k + order))
            value += term
        value *= dmath.exp(-size)
    else:
        mu, term, value = 4.0 * order * order, 1.0, 1.0
        for k in range(1, HANKEL_TERMS):
            term = term * (mu - (2 * k - 1) ** 2) / (k * 8 * size)
            value += term if k % 2 == 0 else -term
        value /= dmath.sqrt(2 * math.pi * size)
    return -value if x < 0 and order == 1 else value


@device.device_function
def bessel_k_scaled(order, x):
    """exp(x) K_order(x) (special.bessel_k_scaled): the trapezoid rule on
    its integral, up to where the integrand is below e^-45."""
    if x != x:
        return math.nan
    if x <= 0:
        return math.inf
    if x == math.inf:
        return 0.0
    step = K_STEP / dmath.sqrt(x if x > 1 else 1.0)
    steps = int(dmath.ceil(dmath.acosh(1 + 45 / x) / step))
    total = 0.5
    for k in range(1, steps + 1):
        t = k * step
        total += dmath.exp(-x * (dmath.cosh(t) - 1)) * dmath.cosh(order * t)
    return total * step


@device.device_function
def _bessel(op, x):
    """The Bessel function of op code ``op`` at x."""
    if op <= BESSEL_J1:
        return bessel_j(op - BESSEL_J0, x)
    if op <= BESSEL_Y1:
        return bessel_y(op - BESSEL_Y0, x)
    if op <= BESSEL_I1E:
        order = (op - BESSEL_I0) // 2
        scaled = bessel_i_scaled(order, x)
        return scaled if (op - BESSEL_I0) % 2 == 1 else scaled * dmath.exp(abs(x))
    order = (op - BESSEL_K0) // 2
    scaled = bessel_k_scaled(order, x)
    return scaled if (op - BESSEL_K0) % 2 == 1 else scaled * dmath.exp(-x)


@device.device_function
def _mvlgamma(x, p):
    """sum_{j < p} lgamma(x - j / 2) + p (p - 1) / 4 ln(pi), with math's
    lgamma as the reference."""
    total = 0.0
    for j in range(p):
        total += math.lgamma(x - j / 2)
    return total + p * (p - 1) / 4 * math.log(math.pi)


@device.jit
def _special(a, b, c, table, op, p, refused, out):
    """out[o] = the function ``op`` of the operands at o's broadcast
    offsets (table rows: out's shape, a's, b's and c's strides), read as
    float64. Mvlgamma (order ``p``) sets refused[0] where x <= (p - 1) / 2
    (or is NaN), the K functions where x is so small (subnormal) that 45 / x
    overflows, and leave that element."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for o in range(start, out.size, stride):
        x = np.float64(a[offset(o, table[0], table[1])])
        if op == LGAMMA:
            out[o] = lgamma(x)
        elif op == DIGAMMA:
            out[o] = digamma(x)
        elif op == MVLGAMMA:
            if x > (p - 1) / 2:
                out[o] = _mvlgamma(x, p)
            else:
                refused[0] = 1
        elif op >= BESSEL_K0 and x > 0 and 45 / x == math.inf:
            refused[0] = 1      # (subnormal: the trapezoid rule cannot reach)
        elif op >= BESSEL_J0:
            out[o] = _bessel(op, x)
        else:
            y = np.float64(b[offset(o, table[0], table[2])])
            if op == ZETA:
                out[o] = zeta(x, y)
            elif op == IGAMMA or op == IGAMMAC:
                out[o] = igamma(x, y, op == IGAMMAC)
            else:
                out[o] = betainc(x, y, np.float64(c[offset(o, table[0], table[3])]))


DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def special(name: str, op: int, *operands, p: int = 0):
    """``op`` of ``operands`` (device arrays or Python numbers) broadcast,
    in the dtype of op ``name``'s reference run on one-element samples
    (which raises its refusals); None for float16, shapes that do not
    broadcast, and a refused element (the one-element flag read back)."""
    samples = [sample(v) * (p or 1) for v in operands]    # (x = p: no refusal)
    dtype = registry.get_op(name).reference(*samples, *((p,) if p else ())).dtype
    if dtype not in DTYPES:
        return None
    operands = [v if device.is_device_array(v)
                else device.to_device(np.asarray(v).astype(dtype)) for v in operands]
    if any(v.dtype not in DTYPES for v in operands):
        return None
    try:
        shape = np.broadcast_shapes(*(tuple(v.shape) for v in operands))
    except ValueError:
        return None
    out = device.empty(shape, dtype)
    if not out.size:
        return out
    flat = [v.reshape(-1) for v in operands]
    flat += [flat[0]] * (3 - len(flat))         # (unread operands)
    refused = device.zeros(1, np.int64)
    device.launch(_special, out.size, *flat,
                  broadcast_table(tuple(shape), *(tuple(v.shape) for v in operands)),
                  op, p, refused, out.reshape(-1))
    if (op == MVLGAMMA or op >= BESSEL_K0) and device.to_host(refused)[0]:
        return None             # (only these refuse: the others need no wait)
    return out


def special_kernel(name: str, op: int):
    """The cuda kernel of special function op ``name``."""
    def run(*operands):
        return special(name, op, *operands)
    return run


def mvlgamma(x, p):
    """Mvlgamma: p < 1 and refused elements decline (the reference raises)."""
    p = int(p)
    return special("Mvlgamma", MVLGAMMA, x, p=p) if p >= 1 else None


CODES = {"Lgamma": LGAMMA, "Digamma": DIGAMMA, "Zeta": ZETA, "Igamma": IGAMMA,
         "Igammac": IGAMMAC, "Betainc": BETAINC, "BesselJ0": BESSEL_J0,
         "BesselJ1": BESSEL_J1, "BesselY0": BESSEL_Y0, "BesselY1": BESSEL_Y1,
         "BesselI0": BESSEL_I0, "BesselI0e": BESSEL_I0E, "BesselI1": BESSEL_I1,
         "BesselI1e": BESSEL_I1E, "BesselK0": BESSEL_K0, "BesselK0e": BESSEL_K0E,
         "BesselK1": BESSEL_K1, "BesselK1e": BESSEL_K1E}
KERNELS = {name: special_kernel(name, op) for name, op in CODES.items()}
KERNELS["Mvlgamma"] = mvlgamma
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"special functions, {dtype}", _special,
        f"void({dtype}[::1], {dtype}[::1], {dtype}[::1], int64[:, ::1], int64, int64,"
        f" int64[::1], {dtype}[::1])") for dtype in ("float32", "float64")]
