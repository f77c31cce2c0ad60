"""Hypot."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import binary
from ._kernels.program import OP_HYPOT
from ._ref.common import FLOATS
from ._ref.math import binary_float


@register("Hypot", family="elementwise", dtypes=FLOATS, recipe=binary(OP_HYPOT))
def hypot(x1, x2):
    """Elementwise hypotenuse: y = sqrt(x1 ** 2 + x2 ** 2), without overflow.

    Arguments: x1, x2 (float tensors, broadcast together); the result has the
    promoted dtype (MindSpore 2.7.1 CPU: float32, float64).
    """
    return binary_float(np.hypot, x1, x2)
