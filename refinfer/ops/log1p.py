"""Log1p."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Log1p", family="elementwise", dtypes=FLOATS)
def log1p(input):
    """Elementwise y = ln(1 + x), accurate for small x.

    Argument: input. x = -1 gives -inf, x < -1 gives NaN. Floats keep their
    dtype (float16 is computed in float32); integer and bool inputs give
    float32.
    """
    return unary_float(np.log1p, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Log1p", "numba")
def log1p_numba(input):
    """Log1p of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Log1p", log1p, input)
