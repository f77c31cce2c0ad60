"""ScalarMod."""
from refinfer.registry import register

from ._ref.scalar import SCALARS, nonzero_divisor, operand, result


@register("ScalarMod", family="scalar", dtypes=SCALARS)
def scalar_mod(x, y):
    """Remainder of two scalars: out = x - floor(x / y) * y (Python's ``%``:
    the sign follows y, -7 % 3 = 2).

    Arguments: x, y (scalars). Result type: see ops/_scalar.py (int for
    int/bool operands, else float32). A zero divisor is an error.
    """
    x, y = operand(x), operand(y)
    nonzero_divisor(y, "ScalarMod")
    return result(x % y, x, y)
