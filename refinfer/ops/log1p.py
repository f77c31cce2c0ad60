"""Log1p."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_LOG1P
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Log1p", family="elementwise", dtypes=FLOATS, recipe=unary(OP_LOG1P))
def log1p(input):
    """Elementwise y = ln(1 + x), accurate for small x.

    Argument: input. x = -1 gives -inf, x < -1 gives NaN. Floats keep their
    dtype (float16 is computed in float32); integer and bool inputs give
    float32.
    """
    return unary_float(np.log1p, input)
