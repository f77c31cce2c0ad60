"""Log10."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_LOG10
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Log10", family="elementwise", dtypes=FLOATS, recipe=unary(OP_LOG10))
def log10(input):
    """Elementwise base-10 logarithm.

    Argument: input. What mint.log10 exports (ops.log10 exports Log and Div).
    MindSpore 2.7.1 has no CPU kernel for it. Floats keep their dtype
    (float16 is computed in float32); integer and bool inputs give float32.
    """
    return unary_float(np.log10, input)
