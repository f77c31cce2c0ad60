"""Digamma."""
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.special import digamma as digamma_f64, in_float64


@register("Digamma", family="elementwise", dtypes=FLOATS, no_kernel="vectorised")
def digamma(input):
    """Elementwise digamma function: y = psi(x) = d/dx ln Gamma(x).

    -inf at 0, NaN at the other poles (-1, -2, ...) and at -inf, +inf at
    +inf (MindSpore 2.7.1 CPU). Argument:
    input (float tensor). Computed in float64 (reflection, recurrence and
    the asymptotic series; ~1e-15 relative away from psi's root), rounded
    to input's dtype.
    """
    return in_float64("Digamma", digamma_f64, input)
