"""Log2."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_LOG2
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Log2", family="elementwise", dtypes=FLOATS, recipe=unary(OP_LOG2))
def log2(input):
    """Elementwise base-2 logarithm.

    y = log2(x) = ln(x) / ln(2): log2(0) = -inf, x < 0 gives NaN.
    Argument: input. What mint.log2 exports (ops.log2 exports Log and Div).
    MindSpore 2.7.1 has no CPU kernel for it. Floats keep their dtype
    (float16 is computed in float32); integer and bool inputs give float32.
    """
    return unary_float(np.log2, input)
