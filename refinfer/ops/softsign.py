"""Softsign."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import SOFTSIGN
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Softsign", family="activation", dtypes=FLOATS, recipe=SOFTSIGN)
def softsign(input):
    """Softsign: y = x / (1 + |x|), elementwise.

    Argument: input; float16 is computed in float32.
    """
    return unary_float(lambda x: x / (1 + np.abs(x)), input)
