"""Div."""
from refinfer.registry import register

from ._kernels.elementwise import binary
from ._kernels.program import OP_DIV
from ._ref.common import ALL
from ._ref.math import true_divide


@register("Div", family="elementwise", dtypes=ALL, recipe=binary(OP_DIV))
def div(input, other):
    """Elementwise true division with broadcasting: y = input / other.

    Arguments: input, other (tensors or Python scalars). Floats follow
    MindSpore's promotion; integer and bool operands are converted to
    float32 first (int32 [1, 3] / 2 -> float32 [0.5, 1.5]). Division by zero
    gives +-inf or NaN (IEEE). Compare RealDiv, which keeps integers.
    """
    return true_divide(input, other)
