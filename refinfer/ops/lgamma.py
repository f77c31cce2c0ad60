"""Lgamma."""
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.special import in_float64, lgamma as lgamma_f64


@register("Lgamma", family="elementwise", dtypes=FLOATS, no_kernel="vectorised")
def lgamma(x):
    """Elementwise natural log of the absolute value of the gamma function.

    y = ln |Gamma(x)|; +inf at the poles (0, -1, -2, ...) and at +-inf.
    Argument: x (float tensor). Computed in float64 (Lanczos's
    approximation and the reflection formula, ~1e-15), rounded to x's dtype.
    """
    return in_float64("Lgamma", lgamma_f64, x)
