"""ScalarLog."""
import math

from refinfer.registry import register

from ._ref.scalar import SCALARS, operand, result


@register("ScalarLog", family="scalar", dtypes=SCALARS)
def scalar_log(x):
    """Natural logarithm of a scalar: out = ln(x), a float (float32, float64
    for a float64 operand), as ``math.log`` on a value graph mode only knows
    at run time.

    Argument: x (a positive int, bool or float scalar; 0 and negatives are
    an error, as in Python).
    """
    x = operand(x)
    if x <= 0:
        raise ValueError(f"ScalarLog: x must be positive, got {x}")
    return result(math.log(x), x, 0.0)
