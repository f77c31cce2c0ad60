"""Hypot."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import binary_float


@register("Hypot", family="elementwise", dtypes=FLOATS)
def hypot(x1, x2):
    """Elementwise hypotenuse: y = sqrt(x1 ** 2 + x2 ** 2), without overflow.

    Arguments: x1, x2 (float tensors, broadcast together); the result has the
    promoted dtype (MindSpore 2.7.1 CPU: float32, float64).
    """
    return binary_float(np.hypot, x1, x2)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Hypot", "numba")
def hypot_numba(x1, x2):
    """Hypot of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Hypot", hypot, x1, x2)
