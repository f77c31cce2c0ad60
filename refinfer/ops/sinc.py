"""Sinc."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL
from ._ref.math import unary_float


@register("Sinc", family="elementwise", dtypes=ALL)
def sinc(input):
    """Normalised sinc: y = sin(pi x) / (pi x), with y(0) = 1.

    Argument: input. Floats keep their dtype (float16 is computed in
    float32); integer and bool inputs give float32.
    """
    return unary_float(np.sinc, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Sinc", "numba")
def sinc_numba(input):
    """Sinc of float32/float64 tensors (Python numbers beside them) through its
    ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Sinc", sinc, input)
