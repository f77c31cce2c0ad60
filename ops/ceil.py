"""Ceil."""
import numpy as np

from refinfer.registry import register

from ._common import FLOATS
from ._math import unary_float


@register("Ceil", family="elementwise", dtypes=FLOATS)
def ceil(input):
    """Elementwise ceiling: the smallest integer >= x.

    Argument: input. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(np.ceil, input)
