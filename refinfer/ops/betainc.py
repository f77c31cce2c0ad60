"""Betainc."""
from refinfer.registry import register

from ._ref.special import betainc as betainc_f64, in_float64


@register("Betainc", family="elementwise", dtypes=("float32", "float64"),
          no_kernel="vectorised")
def betainc(a, b, x):
    """Regularised incomplete beta function I_x(a, b), elementwise.

    z = integral_0^x t^(a-1) (1-t)^(b-1) dt / B(a, b). Arguments: a, b, x
    (float tensors broadcast together); x = 0 gives 0, x = 1 gives 1; a <= 0,
    b <= 0 or x outside [0, 1] gives NaN. Computed in float64 (continued
    fraction, ~1e-13 relative), rounded to the operands' dtype.
    """
    return in_float64("Betainc", betainc_f64, a, b, x)
