"""LogSigmoid."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("LogSigmoid", family="activation", dtypes=FLOATS)
def log_sigmoid(input):
    """Log of the logistic function: y = -ln(1 + e ** -x), without overflow.

    What mint.nn.functional.logsigmoid exports: a pair (y, buffer), of
    which graphs use y; buffer = e ** -|x| is the backward helper PyTorch's
    kernel also returns. MindSpore 2.7.1 has no CPU kernel for it.
    """
    y = unary_float(lambda x: -np.logaddexp(0, -x), input)
    buffer = unary_float(lambda x: np.exp(-np.abs(x)), input)
    return y, buffer


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("LogSigmoid", "numba")
def log_sigmoid_numba(input):
    """LogSigmoid's pair for float32/float64 tensors through its
    ``_fast_math`` recipes; everything else through the reference."""
    pair = _fast_math.log_sigmoid(input)
    return log_sigmoid(input) if pair is None else pair
