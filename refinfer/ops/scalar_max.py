"""ScalarMax."""
from refinfer.registry import register

from ._ref.scalar import SCALARS, operand, result


@register("ScalarMax", family="scalar", dtypes=SCALARS)
def scalar_max(x, y):
    """The larger of two scalars: out = max(x, y) (Python's ``max``).

    Arguments: x, y (scalars). Result type: see ops/_scalar.py (int for
    int/bool operands, else float32).
    """
    x, y = operand(x), operand(y)
    return result(max(x, y), x, y)
