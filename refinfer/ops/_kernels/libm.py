"""Vectorisable scalar math for the Numba kernels: exp, expm1, log, log1p,
tanh, and NumPy's softplus and logaddexp built on them; and a float64 sum
that vectorises (``sum64``).

The math library's exp, log and tanh are one call per element, which LLVM
cannot vectorise (NumPy's own float32 loops are SIMD): these are written in
plain arithmetic that it does, 4 to 10 times faster than the library calls.

- exp: SLEEF's method (x = q ln2 + s, Cody-Waite reduction, a minimax
  polynomial for e ** s, times 2 ** q built from exponent bits in two
  halves, which also gives subnormal results and overflow to inf); within
  2 ulp.
- log: SLEEF's (x = 2 ** e m, ln m = 2 atanh((m - 1) / (m + 1)) by an odd
  polynomial); within 4 ulp. log1p: Goldberg's ln(u) t / (u - 1); expm1:
  Kahan's (u - 1) x / ln u.
- tanh: Cephes' (an odd polynomial near 0, 1 - 2 / (e ** 2|x| + 1)
  beyond); within 2 ulp.
- erf_single: erf to float32's precision, in float64 (a series near 0,
  a Chebyshev erfc with exp beyond).

``fast_exp``, ``fast_log`` and ``fast_tanh`` take a float32 or float64 and
compute in its precision (an overload picks the version); they exist only
in compiled code. The others take their constants typed (``one``, ``ln2``
in the argument's type): a Python number beside a float32 would make the
arithmetic float64. Every helper here is inlined into its callers when Numba
compiles them: LLVM would leave the larger ones (softplus) as calls, and a
loop with a call in it does not vectorise.
"""
from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic, overload

from refinfer.jit import inlined

reassociated = numba.njit(cache=True, nogil=True, fastmath={"reassoc"})
_FLOAT_OF_INT = {types.int32: types.float32, types.int64: types.float64}
_INT_OF_FLOAT = {types.float32: types.int32, types.float64: types.int64}


def _bitcast(table):
    """An intrinsic reinterpreting a scalar's bits as the type ``table``
    maps its type to."""
    @intrinsic
    def bitcast(typingctx, value):
        target = table.get(value)
        if target is None:
            return None

        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], context.get_value_type(target))
        return target(value), codegen
    return bitcast


_float_from_bits = _bitcast(_FLOAT_OF_INT)
_bits_of = _bitcast(_INT_OF_FLOAT)


@inlined
def _exp32(x):
    xc = min(max(x, np.float32(-104.0)), np.float32(89.0))
    q = np.rint(xc * np.float32(1.4426950408889634))
    s = xc - q * np.float32(0.693145751953125)
    s = s - q * np.float32(1.428606765330187045e-06)
    u = np.float32(0.000198527617612853646278381)
    u = u * s + np.float32(0.00139304355252534151077271)
    u = u * s + np.float32(0.00833336077630519866943359)
    u = u * s + np.float32(0.0416664853692054748535156)
    u = u * s + np.float32(0.166666671633720397949219)
    u = u * s + np.float32(0.5)
    u = s * s * u + s + np.float32(1.0)
    n = np.int32(q)
    half = n >> 1
    u = u * _float_from_bits(np.int32((half + 127) << 23)) \
        * _float_from_bits(np.int32((n - half + 127) << 23))
    u = np.float32(np.inf) if x > np.float32(89.0) else u
    return x if x != x else u


@inlined
def _exp64(x):
    xc = min(max(x, -1080.0), 720.0)
    q = np.rint(xc * 1.4426950408889634)
    s = xc - q * 0.69314718055966295651160180568695068359375
    s = s - q * 0.28235290563031577122588448175013436025525412068e-12
    u = 2.08860621107283687536341e-09
    u = u * s + 2.51112930892876518610661e-08
    u = u * s + 2.75573911234900471893338e-07
    u = u * s + 2.75572362911928827629423e-06
    u = u * s + 2.4801587159235472998791e-05
    u = u * s + 0.000198412698960509205564975
    u = u * s + 0.00138888888889774492207962
    u = u * s + 0.00833333333331652721664984
    u = u * s + 0.0416666666666665047591422
    u = u * s + 0.166666666666666851703837
    u = u * s + 0.5
    u = s * s * u + s + 1.0
    n = np.int64(q)
    half = n >> 1
    u = u * _float_from_bits(np.int64((half + 1023) << 52)) \
        * _float_from_bits(np.int64((n - half + 1023) << 52))
    u = np.inf if x > 720.0 else u
    return x if x != x else u


@inlined
def _log32(x):
    tiny = x < np.float32(1.1754944e-38)        # subnormal: scaled by 2 ** 64
    d = x * np.float32(1.8446744e19) if tiny else x
    e = ((_bits_of(d * np.float32(1 / 0.75)) >> 23) & 0xff) - 0x7f
    m = _float_from_bits(np.int32(_bits_of(d) - (e << 23)))     # [0.75, 1.5)
    e = e - 64 if tiny else e
    t = (m - np.float32(1)) / (m + np.float32(1))
    t2 = t * t
    p = np.float32(0.2392828464508056640625)
    p = p * t2 + np.float32(0.28518211841583251953125)
    p = p * t2 + np.float32(0.400005877017974853515625)
    p = p * t2 + np.float32(0.666666686534881591796875)
    p = p * t2 + np.float32(2.0)
    r = t * p + np.float32(0.693147180559945286226764) * np.float32(e)
    r = np.float32(np.inf) if x == np.inf else r
    r = np.float32(-np.inf) if x == 0 else r
    return np.float32(np.nan) if x < 0 or x != x else r


@inlined
def _log64(x):
    tiny = x < 2.2250738585072014e-308
    d = x * 1.8446744073709552e19 if tiny else x
    e = ((_bits_of(d * (1 / 0.75)) >> 52) & 0x7ff) - 0x3ff
    m = _float_from_bits(np.int64(_bits_of(d) - (e << 52)))
    e = e - 64 if tiny else e
    t = (m - 1.0) / (m + 1.0)
    t2 = t * t
    p = 0.153487338491425068243146
    p = p * t2 + 0.152519917006351951593857
    p = p * t2 + 0.181863266251982985677316
    p = p * t2 + 0.222221366518767365905163
    p = p * t2 + 0.285714294746548025383248
    p = p * t2 + 0.399999999950799600689777
    p = p * t2 + 0.6666666666667778740063
    p = p * t2 + 2.0
    r = t * p + 0.693147180559945286226764 * np.float64(e)
    r = np.inf if x == np.inf else r
    r = -np.inf if x == 0 else r
    return np.nan if x < 0 or x != x else r


@inlined
def _tanh32(x):
    z = abs(x)
    large = np.float32(1) - np.float32(2) / (_exp32(z + z) + np.float32(1))
    large = -large if x < 0 else large
    s = x * x
    small = ((((np.float32(-5.70498872745e-3) * s + np.float32(2.06390887954e-2)) * s
               - np.float32(5.37397155531e-2)) * s + np.float32(1.33314422036e-1)) * s
             - np.float32(3.33332819422e-1)) * s * x + x
    return large if z >= np.float32(0.625) else small


@inlined
def _tanh64(x):
    z = abs(x)
    large = 1.0 - 2.0 / (_exp64(z + z) + 1.0)
    large = -large if x < 0 else large
    s = x * x
    p = (-9.64399179425052238628e-1 * s - 9.92877231001918586564e1) * s \
        - 1.61468768441708447952e3
    q = ((s + 1.12811678491632931402e2) * s + 2.23548839060100448583e3) * s \
        + 4.84406305325125486048e3
    return large if z >= 0.625 else x + x * s * p / q


def _by_precision(name: str, single, double):
    """A function of compiled code that computes with ``single`` on a
    float32 and with ``double`` on a float64 (chosen when compiling)."""
    def stub(x):
        raise NotImplementedError(f"{name} is for Numba kernels")
    stub.__name__ = stub.__qualname__ = name

    @overload(stub)
    def choose(x):
        if x == types.float32:
            return lambda x: single(x)
        if x == types.float64:
            return lambda x: double(x)
        return None
    return stub


fast_exp = _by_precision("fast_exp", _exp32, _exp64)
fast_log = _by_precision("fast_log", _log32, _log64)
fast_tanh = _by_precision("fast_tanh", _tanh32, _tanh64)


@inlined
def erf_single(x):
    """erf(x) for a float64 x, to float32's precision (relative error below
    2e-7, where the math library's erf is exact to float64's) but
    vectorisable: the Taylor series below 0.5, Numerical Recipes' erfc
    (Chebyshev, fractional error below 1.2e-7) with one :func:`fast_exp`
    beyond. For float32 results computed in float64 (GeLU with erf)."""
    z = abs(x)
    s = x * x       # 2 / sqrt(pi) (-1) ** k / (k! (2k + 1)), k = 8 .. 0
    series = 1.6462114365889246e-06
    series = series * s - 1.492565035840625e-05
    series = series * s + 0.00012055332981789664
    series = series * s - 0.0008548327023450852
    series = series * s + 0.005223977625442188
    series = series * s - 0.026866170645131252
    series = series * s + 0.11283791670955126
    series = series * s - 0.37612638903183754
    series = series * s + 1.1283791670955126
    t = 1.0 / (1.0 + 0.5 * z)
    p = 0.17087277
    p = p * t - 0.82215223
    p = p * t + 1.48851587
    p = p * t - 1.13520398
    p = p * t + 0.27886807
    p = p * t - 0.18628806
    p = p * t + 0.09678418
    p = p * t + 0.37409196
    p = p * t + 1.00002368
    p = p * t - 1.26551223
    tail = 1.0 - t * _exp64(-z * z + p)
    tail = -tail if x < 0 else tail
    return x * series if z < 0.5 else tail


@inlined
def fast_log1p(t, one):
    """ln(1 + t) with :func:`fast_log`, accurate for small t (Goldberg:
    ln(u) t / (u - 1) with u = 1 + t rounded); ``one`` is 1 in t's type."""
    u = t + one
    if u == one or t == np.inf:
        return t
    return fast_log(u) * t / (u - one)


@inlined
def fast_expm1(x, one):
    """e ** x - 1 with :func:`fast_exp` and :func:`fast_log`, accurate for
    small x (Kahan: (u - 1) x / ln u with u = e ** x rounded, where u - 1
    cancels); ``one`` is 1 in x's type."""
    u = fast_exp(x)
    if u == one:
        return x
    if u < 0.5 or u > 2:    # u - 1 does not cancel (also 0 and inf)
        return u - one
    return (u - one) * (x / fast_log(u))


@inlined
def softplus(x, ln2):
    """ln(1 + e ** x) as NumPy's logaddexp(0, x) computes it, max(x, 0) +
    ln(1 + e ** -|x|) (``ln2`` in x's dtype); branch-free, so that loops of
    it vectorise. No overflow; NaN propagates."""
    zero, one = ln2 - ln2, ln2 / ln2
    return (x if x > zero else zero) + fast_log1p(fast_exp(-abs(x)), one)


@inlined
def logaddexp(x, y, ln2):
    """ln(e ** x + e ** y) as NumPy computes it, max(x, y) +
    ln(1 + e ** -|x - y|) (``ln2`` in x's dtype); branch-free."""
    r = (x if x > y else y) + fast_log1p(fast_exp(-abs(x - y)), ln2 / ln2)
    return x + ln2 if x == y else r     # also equal infinities


@reassociated
def sum64(a):
    """Sum of a 1-D float array, accumulated in float64 and added in any
    order: reassociation lets LLVM split the sum over SIMD lanes, 4-5x
    faster than one add after another (whose latency bounds the loop) and
    no less accurate. A compiled call of its own, never inlined: the other
    helpers here must not be reassociated (exp's range reduction relies on
    its order of operations)."""
    total = 0.0
    for j in range(a.shape[0]):
        total += a[j]
    return total
