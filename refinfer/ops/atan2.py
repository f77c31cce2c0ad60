"""Atan2, Atan2Ext."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import binary_float


@register("Atan2", "Atan2Ext", family="elementwise", dtypes=FLOATS)
def atan2(input, other):
    """Elementwise angle of the point (other, input): y = atan2(input, other).

    Arguments: input (the y coordinate), other (the x coordinate), tensors
    broadcast together; result in [-pi, pi] radians. Floats keep the
    promoted dtype; integer and bool operands give float32. Atan2Ext is what
    mint.atan2 exports (no CPU kernel in MindSpore 2.7.1).
    """
    return binary_float(np.arctan2, input, other)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Atan2", "numba")
@register_kernel("Atan2Ext", "numba")
def atan2_numba(input, other):
    """Atan2 / Atan2Ext of float32/float64 tensors (Python numbers beside them)
    through its ``_fast_math`` recipe; everything else through the
    reference."""
    return _fast_math.apply("Atan2", atan2, input, other)
