"""BesselJ0, BesselJ1, BesselY0, BesselY1, BesselI0, BesselI0e, BesselI1,
BesselI1e, BesselK0, BesselK0e, BesselK1, BesselK1e."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.special import (bessel_i_scaled, bessel_j, bessel_k_scaled, bessel_y,
                           in_float64)

_DOC = """{summary}

y = {formula}. Argument: x (float tensor). {edges} Computed in float64
({accuracy}), rounded to x's dtype.
"""


def _i(order):
    return lambda x: bessel_i_scaled(order, x) * np.exp(np.abs(x))


def _k(order):
    return lambda x: bessel_k_scaled(order, x) * np.exp(-x)


# name -> (float64 function, summary, formula, edges, accuracy)
_SERIES = "power series, then Hankel's expansion above 12"
_VARIANTS = {
    "BesselJ0": (lambda x: bessel_j(0, x), "Bessel function of the first kind of order 0.",
                 "J0(x), even", "NaN at +-inf.", _SERIES + "; 1e-12 absolute"),
    "BesselJ1": (lambda x: bessel_j(1, x), "Bessel function of the first kind of order 1.",
                 "J1(x), odd", "NaN at +-inf.", _SERIES + "; 1e-12 absolute"),
    "BesselY0": (lambda x: bessel_y(0, x), "Bessel function of the second kind, order 0.",
                 "Y0(x)", "-inf for x <= 0, NaN at +inf.", _SERIES + "; 1e-11 absolute"),
    "BesselY1": (lambda x: bessel_y(1, x), "Bessel function of the second kind, order 1.",
                 "Y1(x)", "NaN at 0 and +inf, -inf for x < 0.", _SERIES + "; 1e-11 absolute"),
    "BesselI0": (_i(0), "Modified Bessel function of the first kind of order 0.",
                 "I0(x), even", "+inf where it overflows.",
                 "power series, asymptotic expansion above 30; 1e-15 relative"),
    "BesselI0e": (lambda x: bessel_i_scaled(0, x), "Exponentially scaled I0.",
                  "exp(-|x|) I0(x), even", "",
                  "power series, asymptotic expansion above 30; 1e-15 relative"),
    "BesselI1": (_i(1), "Modified Bessel function of the first kind of order 1.",
                 "I1(x), odd", "+-inf where it overflows.",
                 "power series, asymptotic expansion above 30; 1e-15 relative"),
    "BesselI1e": (lambda x: bessel_i_scaled(1, x), "Exponentially scaled I1.",
                  "exp(-|x|) I1(x), odd", "",
                  "power series, asymptotic expansion above 30; 1e-15 relative"),
    "BesselK0": (_k(0), "Modified Bessel function of the second kind of order 0.",
                 "K0(x)", "+inf for x <= 0.",
                 "trapezoid rule on its integral; 1e-13 relative"),
    "BesselK0e": (lambda x: bessel_k_scaled(0, x), "Exponentially scaled K0.",
                  "exp(x) K0(x)", "+inf for x <= 0.",
                  "trapezoid rule on its integral; 1e-13 relative"),
    "BesselK1": (_k(1), "Modified Bessel function of the second kind of order 1.",
                 "K1(x)", "+inf for x <= 0.",
                 "trapezoid rule on its integral; 1e-13 relative"),
    "BesselK1e": (lambda x: bessel_k_scaled(1, x), "Exponentially scaled K1.",
                  "exp(x) K1(x)", "+inf for x <= 0.",
                  "trapezoid rule on its integral; 1e-13 relative"),
}


def _make(name, function, summary, formula, edges, accuracy):
    def bessel(x):
        return in_float64(name, function, x)
    bessel.__name__ = bessel.__qualname__ = "bessel_" + name[len("Bessel"):].lower()
    bessel.__doc__ = _DOC.format(summary=summary, formula=formula, edges=edges,
                                 accuracy=accuracy)
    return register(name, family="elementwise", dtypes=FLOATS,
                    no_kernel="vectorised")(bessel)


for _name, _spec in _VARIANTS.items():
    _make(_name, *_spec)
