"""Igamma and Igammac."""
from refinfer.registry import register

from ._ref.special import igamma as igamma_f64, in_float64


@register("Igamma", family="elementwise", dtypes=("float32", "float64"),
          no_kernel="vectorised")
def igamma(a, x):
    """Regularised lower incomplete gamma function P(a, x), elementwise.

    z = 1 / Gamma(a) * integral_0^x t^(a-1) e^-t dt. Arguments: a, x (float
    tensors broadcast together); x = 0 gives 0, x = inf 1; a <= 0 or x < 0
    gives NaN (as Eigen). Computed in float64 (series or continued
    fraction, ~1e-13 relative), rounded to the operands' dtype.
    """
    return in_float64("Igamma", igamma_f64, a, x)


@register("Igammac", family="elementwise", dtypes=("float32", "float64"),
          no_kernel="vectorised")
def igammac(a, x):
    """Regularised upper incomplete gamma function Q(a, x) = 1 - P(a, x).

    Arguments: a, x (float tensors broadcast together); x = 0 gives 1,
    x = inf NaN (MindSpore 2.7.1 CPU); a <= 0 or x < 0 gives NaN. Computed in float64 as Igamma,
    the continued fraction giving Q itself where it runs.
    """
    return in_float64("Igammac", lambda a, x: igamma_f64(a, x, upper=True), a, x)
