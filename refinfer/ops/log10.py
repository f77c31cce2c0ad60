"""Log10."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Log10", family="elementwise", dtypes=FLOATS)
def log10(input):
    """Elementwise base-10 logarithm.

    Argument: input. What mint.log10 exports (ops.log10 exports Log and Div).
    MindSpore 2.7.1 has no CPU kernel for it. Floats keep their dtype
    (float16 is computed in float32); integer and bool inputs give float32.
    """
    return unary_float(np.log10, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Log10", "numba")
def log10_numba(input):
    """Log10 of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Log10", log10, input)
