"""Zeta."""
from refinfer.registry import register

from ._ref.special import in_float64, zeta as zeta_f64


@register("Zeta", family="elementwise", dtypes=("float32", "float64"),
          no_kernel="vectorised")
def zeta(x, q):
    """Elementwise Hurwitz zeta function: z = sum_{k >= 0} (q + k) ** -x.

    Arguments: x (the exponent), q (the shift), float tensors broadcast
    together. x = 1 gives +inf, x < 1 NaN; q a pole (0, -1, ...) gives +inf,
    q < 0 with a non-integer x NaN (as Cephes). Computed in float64
    (~1e-15 relative), rounded to the operands' dtype.
    """
    return in_float64("Zeta", zeta_f64, x, q)
