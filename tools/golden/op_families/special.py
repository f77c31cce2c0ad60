"""Special functions: Lgamma, Digamma, Zeta, the incomplete gamma and beta functions
and the Bessel family, each on a random range and on its edges (poles, zero, infinities),
as MindSpore 2.7.1's CPU kernels compute them."""

from op_cases import OpCase, fixed, t

S = (2, 4)
NAN, INF = float("nan"), float("inf")
BESSEL = ["J0", "J1", "Y0", "Y1", "I0", "I0e", "I1", "I1e", "K0", "K0e", "K1", "K1e"]
# Bessel arguments: small, both sides of the series / asymptotic switches (12, 30),
# zero, negative, and where I overflows float32
BESSEL_EDGES = [0.0, -1.5, 1e-3, 0.5, 3.0, 11.9, 12.5, 29.0, 31.0, 95.0, INF, NAN]


def bessel(name, ops, low, high):
    """One case applying several Bessel functions to one random (3, 4) input."""
    return OpCase(name, [f"Bessel{n}" for n in ops],
                  "(" + ", ".join(f"P.Bessel{n}()(x)" for n in ops) + ")",
                  [t((3, 4), low=low, high=high)])


CASES = [
    OpCase("lgamma", "Lgamma", "ops.lgamma(x)", [t(S, low=-4.0, high=8.0)]),
    OpCase("lgamma_edges", "Lgamma", "ops.lgamma(x)",
           [fixed([0.0, -1.0, -2.5, 1.0, 2.0, INF, -INF, NAN, 1e-8, 30.0])]),
    OpCase("digamma", "Digamma", "ops.digamma(x)", [t(S, low=-3.0, high=8.0)]),
    OpCase("digamma_edges", "Digamma", "ops.digamma(x)",
           [fixed([0.0, -1.0, -0.5, -2.5, INF, -INF, 1e-6, 1.4616321])]),
    OpCase("zeta", "Zeta", "ops.zeta(x, y)", [t(S, low=1.1, high=5.0), t(S, low=0.1, high=4.0)]),
    OpCase("zeta_edges", "Zeta", "ops.zeta(x, y)",
           [fixed([1.0, 0.5, 2.0, 2.5, 2.0, 3.0]), fixed([1.0, 1.0, -1.0, -1.5, -1.5, 20.0])]),
    OpCase("igamma", "Igamma", "ops.igamma(x, y)",
           [t(S, low=0.1, high=5.0), t(S, low=0.0, high=8.0)]),
    OpCase("igammac", "Igammac", "ops.igammac(x, y)",
           [t(S, "float64", 0.1, 5.0), t(S, "float64", 0.0, 8.0)]),
    OpCase("igamma_edges", ["Igamma", "Igammac"], "(ops.igamma(x, y), ops.igammac(x, y))",
           [fixed([0.0, -1.0, 1.0, 2.0, 1.0, 30.0]), fixed([1.0, 1.0, 0.0, INF, -1.0, 20.0])]),
    OpCase("betainc", "Betainc", "ops.auto_generate.Betainc()(x, y, z)",
           [t(S, low=0.5, high=5.0), t(S, low=0.5, high=5.0), t(S, low=0.0, high=1.0)]),
    OpCase("betainc_edges", "Betainc", "ops.auto_generate.Betainc()(x, y, z)",
           [fixed([1.0, 2.0, 2.0, 0.0, 3.0], "float64"), fixed([1.0, 3.0, 3.0, 1.0, -1.0], "float64"),
            fixed([0.0, 1.0, 0.3, 0.5, 0.5], "float64")]),
    bessel("bessel_real_line", ["J0", "J1", "I0", "I0e", "I1", "I1e"], -20.0, 20.0),
    bessel("bessel_positive", ["Y0", "Y1", "K0", "K0e", "K1", "K1e"], 0.01, 25.0),
    OpCase("bessel_edges", [f"Bessel{n}" for n in BESSEL],
           "(" + ", ".join(f"P.Bessel{n}()(x)" for n in BESSEL) + ")", [fixed(BESSEL_EDGES)]),
]
