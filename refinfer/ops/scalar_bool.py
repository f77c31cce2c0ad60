"""ScalarBool."""
from refinfer.registry import register

from ._ref.scalar import SCALARS, operand


@register("ScalarBool", family="scalar", dtypes=SCALARS)
def scalar_bool(x):
    """Truth value of a scalar: out = bool(x) (0, 0.0 and False are False).

    Arguments: x (scalar).
    """
    return bool(operand(x))
