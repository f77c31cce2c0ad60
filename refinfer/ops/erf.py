"""Erf."""
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import erf_f64, unary_float


@register("Erf", family="elementwise", dtypes=FLOATS)
def erf(input):
    """Elementwise error function: y = 2/sqrt(pi) * integral_0^x exp(-t^2) dt.

    Argument: input. Computed in float64 with math.erf, then rounded to the
    input dtype. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(erf_f64, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("Erf", "numba")
def erf_numba(input):
    """Erf of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_ERF, erf, input)
