"""Exp2."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Exp2", family="elementwise", dtypes=FLOATS)
def exp2(input):
    """Elementwise base-2 exponential: y = 2 ** x.

    Argument: input. What mint.exp2 exports (ops.exp2 exports Pow(2, x)
    instead). MindSpore 2.7.1 has no CPU kernel for it. Floats keep their
    dtype (float16 is computed in float32); integer and bool inputs give
    float32.
    """
    return unary_float(np.exp2, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Exp2", "numba")
def exp2_numba(input):
    """Exp2 of float32/float64 tensors (Python numbers beside them) through its
    ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Exp2", exp2, input)
