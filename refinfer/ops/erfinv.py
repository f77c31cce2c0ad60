"""Erfinv."""
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import erfinv_f64, unary_float


@register("Erfinv", family="elementwise", dtypes=FLOATS)
def erfinv(input):
    """Elementwise inverse error function: erf(y) = x.

    Argument: input. Defined on [-1, 1]: erfinv(+-1) = +-inf, |x| > 1 gives
    NaN. Computed in float64. Floats keep their dtype (float16 is computed
    in float32); integer and bool inputs give float32.
    """
    return unary_float(erfinv_f64, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Erfinv", "numba")
def erfinv_numba(input):
    """Erfinv of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Erfinv", erfinv, input)
