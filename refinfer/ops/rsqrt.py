"""Rsqrt."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Rsqrt", family="elementwise", dtypes=FLOATS)
def rsqrt(input):
    """Elementwise reciprocal square root: y = 1 / sqrt(x).

    Argument: input. rsqrt(0) = inf, negative inputs give NaN. Floats keep
    their dtype (float16 is computed in float32); integer and bool inputs
    give float32.
    """
    return unary_float(lambda x: 1 / np.sqrt(x), input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Rsqrt", "numba")
def rsqrt_numba(input):
    """Rsqrt of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Rsqrt", rsqrt, input)
