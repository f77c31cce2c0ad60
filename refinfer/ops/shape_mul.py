"""shape_mul."""
import math

from refinfer.registry import register

from ._ref.scalar import SCALARS, operand


@register("shape_mul", family="scalar", dtypes=SCALARS)
def shape_mul(input_data):
    """The product of a tuple of ints, the element count of a shape:
    out = input_data[0] * input_data[1] * ... (1 for an empty tuple).

    Argument: input_data (tuple of ints).
    """
    return math.prod(operand(d) for d in input_data)
