"""ScalarSub."""
from refinfer.registry import register

from ._ref.scalar import SCALARS, operand, result


@register("ScalarSub", family="scalar", dtypes=SCALARS)
def scalar_sub(x, y):
    """Difference of two scalars: out = x - y (Python's ``-``).

    Arguments: x, y (scalars). Result type: see ops/_scalar.py (int for
    int/bool operands, else float32).
    """
    x, y = operand(x), operand(y)
    return result(x - y, x, y)
