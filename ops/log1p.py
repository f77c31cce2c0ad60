"""Log1p."""
import numpy as np

from refinfer.registry import register

from ._common import FLOATS
from ._math import unary_float


@register("Log1p", family="elementwise", dtypes=FLOATS)
def log1p(input):
    """Elementwise y = ln(1 + x), accurate for small x.

    Argument: input. x = -1 gives -inf, x < -1 gives NaN. Floats keep their
    dtype (float16 is computed in float32); integer and bool inputs give
    float32.
    """
    return unary_float(np.log1p, input)
