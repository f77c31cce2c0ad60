"""ScalarUsub."""
from refinfer.registry import register

from ._ref.scalar import SCALARS, operand, result


@register("ScalarUsub", family="scalar", dtypes=SCALARS)
def scalar_usub(x):
    """Negation of a scalar: out = -x (Python's unary ``-``; -True = -1).

    Arguments: x (scalar). Result type: int for int/bool, else x's float
    width (see ops/_scalar.py).
    """
    x = operand(x)
    return result(-x, x)
