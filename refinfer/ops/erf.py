"""Erf."""
from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_ERF
from ._ref.common import FLOATS
from ._ref.math import erf_f64, unary_float


@register("Erf", family="elementwise", dtypes=FLOATS, recipe=unary(OP_ERF))
def erf(input):
    """Elementwise error function: y = 2/sqrt(pi) * integral_0^x exp(-t^2) dt.

    Argument: input. Computed in float64 with math.erf, then rounded to the
    input dtype. Floats keep their dtype (float16 is computed in float32);
    integer and bool inputs give float32.
    """
    return unary_float(erf_f64, input)
