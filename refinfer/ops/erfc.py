"""Erfc."""
import math

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import scalar_math, unary_float


@register("Erfc", family="elementwise", dtypes=FLOATS)
def erfc(input):
    """Elementwise complementary error function: y = 1 - erf(x).

    Argument: input. Computed in float64 with math.erfc (accurate for large x,
    where 1 - erf(x) underflows). Floats keep their dtype (float16 is
    computed in float32); integer and bool inputs give float32.
    """
    return unary_float(lambda x: scalar_math(math.erfc, x), input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Erfc", "numba")
def erfc_numba(input):
    """Erfc of float32/float64 tensors (Python numbers beside them) through its
    ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Erfc", erfc, input)
