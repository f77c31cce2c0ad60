"""Asin."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Asin", family="elementwise", dtypes=FLOATS)
def asin(input):
    """Elementwise inverse sine, in radians.

    Argument: input. |x| > 1 gives NaN. Floats keep their dtype (float16 is
    computed in float32); integer and bool inputs give float32.
    """
    return unary_float(np.arcsin, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Asin", "numba")
def asin_numba(input):
    """Asin of float32/float64 tensors (Python numbers beside them) through its
    ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Asin", asin, input)
