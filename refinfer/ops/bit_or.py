"""bit_or."""
from refinfer.registry import register

from ._ref.scalar import operand


@register("bit_or", family="scalar", dtypes=("bool", "int64"))
def bit_or(x, y):
    """Bitwise OR of two int or bool scalars: out = x | y, as Python's
    ``|`` (two bools give a bool, otherwise an int).

    Arguments: x, y (int or bool scalars).
    """
    return operand(x) | operand(y)
