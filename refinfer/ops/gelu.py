"""GeLU."""
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import gelu_tanh, unary_float


@register("GeLU", family="activation", dtypes=FLOATS)
def gelu(input):
    """Gaussian error linear unit, tanh approximation, elementwise.

    y = 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x ** 3))). What
    ops.gelu(x, approximate="tanh") exports (the exact form exports Erf,
    Div, Add, Mul). Argument: input; float16 is computed in float32.
    """
    return unary_float(gelu_tanh, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("GeLU", "numba")
def gelu_numba(input):
    """GeLU of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_GELU, gelu, input)
