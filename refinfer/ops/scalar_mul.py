"""ScalarMul."""
from refinfer.registry import register

from ._ref.scalar import SCALARS, operand, result


@register("ScalarMul", family="scalar", dtypes=SCALARS)
def scalar_mul(x, y):
    """Product of two scalars: out = x * y (Python's ``*``).

    Arguments: x, y (scalars). Result type: see ops/_scalar.py (int for
    int/bool operands, else float32).
    """
    x, y = operand(x), operand(y)
    return result(x * y, x, y)
