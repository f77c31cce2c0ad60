"""Erfinv."""
from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_ERFINV
from ._ref.common import FLOATS
from ._ref.math import erfinv_f64, unary_float


@register("Erfinv", family="elementwise", dtypes=FLOATS, recipe=unary(OP_ERFINV))
def erfinv(input):
    """Elementwise inverse error function: erf(y) = x.

    Argument: input. Defined on [-1, 1]: erfinv(+-1) = +-inf, |x| > 1 gives
    NaN. Computed in float64. Floats keep their dtype (float16 is computed
    in float32); integer and bool inputs give float32.
    """
    return unary_float(erfinv_f64, input)
