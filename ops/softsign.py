"""Softsign."""
import numpy as np

from refinfer.registry import register

from ._common import FLOATS
from ._math import unary_float


@register("Softsign", family="activation", dtypes=FLOATS)
def softsign(input):
    """Softsign: y = x / (1 + |x|), elementwise.

    Argument: input; float16 is computed in float32.
    """
    return unary_float(lambda x: x / (1 + np.abs(x)), input)
