"""Log2."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Log2", family="elementwise", dtypes=FLOATS)
def log2(input):
    """Elementwise base-2 logarithm.

    Argument: input. What mint.log2 exports (ops.log2 exports Log and Div).
    MindSpore 2.7.1 has no CPU kernel for it. Floats keep their dtype
    (float16 is computed in float32); integer and bool inputs give float32.
    """
    return unary_float(np.log2, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Log2", "numba")
def log2_numba(input):
    """Log2 of float32/float64 tensors (Python numbers beside them) through its
    ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Log2", log2, input)
