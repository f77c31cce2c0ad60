"""Div."""
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.math import true_divide


@register("Div", family="elementwise", dtypes=ALL)
def div(input, other):
    """Elementwise true division with broadcasting: y = input / other.

    Arguments: input, other (tensors or Python scalars). Floats follow
    MindSpore's promotion; integer and bool operands are converted to
    float32 first (int32 [1, 3] / 2 -> float32 [0.5, 1.5]). Division by zero
    gives +-inf or NaN (IEEE). Compare RealDiv, which keeps integers.
    """
    return true_divide(input, other)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("Div", "numba")
def div_numba(input, other):
    """Div of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_DIV, div, input, other)
