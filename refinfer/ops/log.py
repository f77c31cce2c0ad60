"""Log."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_LOG
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Log", family="elementwise", dtypes=FLOATS, recipe=unary(OP_LOG))
def log(input):
    """Elementwise natural logarithm: y = ln(x).

    Argument: input. log(0) = -inf, negative inputs give NaN. Floats keep their
    dtype (float16 is computed in float32); integer and bool inputs give
    float32.
    """
    return unary_float(np.log, input)
