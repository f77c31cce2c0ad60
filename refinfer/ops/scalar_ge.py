"""ScalarGe."""
from refinfer.registry import register

from ._ref.scalar import SCALARS, operand


@register("ScalarGe", family="scalar", dtypes=SCALARS)
def scalar_ge(x, y):
    """Whether scalar x is greater than or equal to y: out = x >= y (a Python bool).

    Arguments: x, y (int, bool or float scalars; a one-element tensor is
    unwrapped). Ints and floats compare by value (2 >= 2.0 as in Python).
    """
    return bool(operand(x) >= operand(y))
