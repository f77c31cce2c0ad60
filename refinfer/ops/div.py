"""Div and Divs, and their in-place spellings."""
from refinfer.registry import register, register_variant

from ._kernels.elementwise import binary
from ._kernels.program import OP_DIV
from ._ref.common import ALL
from ._ref.inplace import in_input_dtype, register_inplace
from ._ref.math import true_divide


@register("Div", family="elementwise", dtypes=ALL, recipe=binary(OP_DIV))
def div(input, other):
    """Elementwise true division with broadcasting: y = input / other.

    Arguments: input, other (tensors or Python scalars). Floats follow
    MindSpore's promotion; integer and bool operands are converted to
    float32 first (int32 [1, 3] / 2 -> float32 [0.5, 1.5]). Division by zero
    gives +-inf or NaN (IEEE). Compare RealDiv, which keeps integers. Divs
    (what mint.div(x, 2) exports) computes in input's dtype: ``other`` is
    converted to it first and the quotient back (int32 [7, -5] / 2.5 ->
    [3, -2]: divided by 2, truncated); InplaceDiv and InplaceDivs
    (x.div_(y)) write that quotient into input (``ops._ref.inplace``).
    """
    return true_divide(input, other)


register_variant("Div", "Divs", wrap=in_input_dtype)
register_inplace("Div", "InplaceDiv", "InplaceDivs")
