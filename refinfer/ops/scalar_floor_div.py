"""ScalarFloorDiv."""
from refinfer.registry import register

from ._ref.scalar import SCALARS, nonzero_divisor, operand, result


@register("ScalarFloorDiv", family="scalar", dtypes=SCALARS)
def scalar_floor_div(x, y):
    """Floor division of two scalars: out = floor(x / y) (Python's ``//``,
    rounding toward minus infinity: -7 // 2 = -4).

    Arguments: x, y (scalars). Result type: see ops/_scalar.py (int for
    int/bool operands, else float32). A zero divisor is an error.
    """
    x, y = operand(x), operand(y)
    nonzero_divisor(y, "ScalarFloorDiv")
    return result(x // y, x, y)
