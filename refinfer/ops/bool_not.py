"""BoolNot and bool_not."""
from refinfer.registry import register

from ._ref.scalar import SCALARS, operand


@register("BoolNot", "bool_not", family="scalar", dtypes=SCALARS)
def bool_not(x):
    """Logical negation of a scalar: out = not x (a Python bool).

    Arguments: x (a bool scalar; an int counts as bool(x)).
    """
    return not operand(x)
