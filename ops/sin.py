"""Sin."""
import numpy as np

from refinfer.registry import register

from ._common import FLOATS
from ._math import unary_float


@register("Sin", family="elementwise", dtypes=FLOATS)
def sin(input):
    """Elementwise sine (radians).

    Argument: input. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(np.sin, input)
