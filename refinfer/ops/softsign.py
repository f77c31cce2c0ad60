"""Softsign."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Softsign", family="activation", dtypes=FLOATS)
def softsign(input):
    """Softsign: y = x / (1 + |x|), elementwise.

    Argument: input; float16 is computed in float32.
    """
    return unary_float(lambda x: x / (1 + np.abs(x)), input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Softsign", "numba")
def softsign_numba(input):
    """Softsign of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Softsign", softsign, input)
