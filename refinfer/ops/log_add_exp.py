"""LogAddExp."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import binary_float


@register("LogAddExp", family="elementwise", dtypes=FLOATS)
def log_add_exp(input, other):
    """Elementwise y = ln(e ** input + e ** other), without overflow.

    Arguments: input, other (float tensors, broadcast together). What
    mint.logaddexp exports (ops.logaddexp exports Maximum, Exp, Log1p...);
    MindSpore 2.7.1 has no CPU kernel for it.
    """
    return binary_float(np.logaddexp, input, other)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("LogAddExp", "numba")
def log_add_exp_numba(input, other):
    """LogAddExp of float32/float64 tensors (Python numbers beside them)
    through its ``_fast_math`` recipe; everything else through the
    reference."""
    return _fast_math.apply("LogAddExp", log_add_exp, input, other)
