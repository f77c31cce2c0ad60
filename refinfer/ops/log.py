"""Log."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Log", family="elementwise", dtypes=FLOATS)
def log(input):
    """Elementwise natural logarithm: y = ln(x).

    Argument: input. log(0) = -inf, negative inputs give NaN. Floats keep their
    dtype (float16 is computed in float32); integer and bool inputs give
    float32.
    """
    return unary_float(np.log, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("Log", "numba")
def log_numba(input):
    """Log of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_LOG, log, input)
