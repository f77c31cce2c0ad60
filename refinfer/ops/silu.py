"""SiLU."""
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import logistic, unary_float


@register("SiLU", family="activation", dtypes=FLOATS)
def silu(input):
    """Sigmoid linear unit (swish): y = x * sigmoid(x), elementwise.

    Argument: input; float16 is computed in float32.
    """
    return unary_float(lambda x: x * logistic(x), input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("SiLU", "numba")
def silu_numba(input):
    """SiLU of float32/float64 tensors (Python numbers beside them) through its
    ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("SiLU", silu, input)
