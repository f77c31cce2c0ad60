"""Exp."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_float, as_result


@register("Exp", family="elementwise", dtypes=ALL)
def exp(input):
    """Elementwise natural exponential: y = e ** x.

    Argument: input. Floats keep their dtype (overflow gives inf); integer
    and bool inputs give float32.
    """
    with np.errstate(over="ignore"):
        return as_result(np.exp(as_float(input)))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("Exp", "numba")
def exp_numba(input):
    """Exp of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_EXP, exp, input)
