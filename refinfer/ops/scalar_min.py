"""ScalarMin."""
from refinfer.registry import register

from ._ref.scalar import SCALARS, operand, result


@register("ScalarMin", family="scalar", dtypes=SCALARS)
def scalar_min(x, y):
    """The smaller of two scalars: out = min(x, y) (Python's ``min``).

    Arguments: x, y (scalars). Result type: see ops/_scalar.py (int for
    int/bool operands, else float32).
    """
    x, y = operand(x), operand(y)
    return result(min(x, y), x, y)
