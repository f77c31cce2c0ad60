"""ScalarPow."""
from refinfer.registry import register

from ._ref.scalar import SCALARS, operand, result


@register("ScalarPow", family="scalar", dtypes=SCALARS)
def scalar_pow(x, y):
    """Power of two scalars: out = x ** y (Python's ``**``).

    Arguments: x, y (scalars). Result type: see ops/_scalar.py (int for
    int/bool operands with y >= 0, else float32).
    """
    x, y = operand(x), operand(y)
    return result(x ** y, x, y)
