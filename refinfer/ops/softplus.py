"""Softplus."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Softplus", family="activation", dtypes=FLOATS)
def softplus(input):
    """Softplus: y = ln(1 + e ** x), elementwise, without overflow.

    Argument: input; float16 is computed in float32. ops.softplus exports it
    inside Select(x * beta > threshold, x, Softplus(beta x) / beta).
    """
    return unary_float(lambda x: np.logaddexp(0, x), input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Softplus", "numba")
def softplus_numba(input):
    """Softplus of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Softplus", softplus, input)
