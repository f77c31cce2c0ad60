"""Atan2, Atan2Ext."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import binary
from ._kernels.program import OP_ATAN2
from ._ref.common import FLOATS
from ._ref.math import binary_float


@register("Atan2", "Atan2Ext", family="elementwise", dtypes=FLOATS,
          recipe=binary(OP_ATAN2))
def atan2(input, other):
    """Elementwise angle of the point (other, input): y = atan2(input, other).

    Arguments: input (the y coordinate), other (the x coordinate), tensors
    broadcast together; result in [-pi, pi] radians. Floats keep the
    promoted dtype; integer and bool operands give float32. Atan2Ext is what
    mint.atan2 exports (no CPU kernel in MindSpore 2.7.1).
    """
    return binary_float(np.arctan2, input, other)
