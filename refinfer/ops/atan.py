"""Atan."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Atan", family="elementwise", dtypes=FLOATS)
def atan(input):
    """Elementwise inverse tangent, in radians.

    Argument: input. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(np.arctan, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Atan", "numba")
def atan_numba(input):
    """Atan of float32/float64 tensors (Python numbers beside them) through its
    ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Atan", atan, input)
