"""ScalarDiv."""
from refinfer.registry import register

from ._ref.scalar import SCALARS, nonzero_divisor, operand, result


@register("ScalarDiv", family="scalar", dtypes=SCALARS)
def scalar_div(x, y):
    """True division of two scalars: out = x / y (Python's ``/``).

    Arguments: x, y (scalars). The result is always a float: float32
    (float64 if an operand is a float64 scalar). A zero divisor is an error.
    """
    x, y = operand(x), operand(y)
    nonzero_divisor(y, "ScalarDiv")
    return result(float(x) / float(y), x, y)
