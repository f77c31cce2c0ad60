"""LogSigmoid."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import LOG_SIGMOID, log_sigmoid_pair
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("LogSigmoid", family="activation", dtypes=FLOATS,
          recipe=LOG_SIGMOID, kernels={"numba": log_sigmoid_pair})
def log_sigmoid(input):
    """Log of the logistic function: y = -ln(1 + e ** -x), without overflow.

    What mint.nn.functional.logsigmoid exports: a pair (y, buffer), of
    which graphs use y; buffer = e ** -|x| is the backward helper PyTorch's
    kernel also returns. MindSpore 2.7.1 has no CPU kernel for it.
    """
    y = unary_float(lambda x: -np.logaddexp(0, -x), input)
    buffer = unary_float(lambda x: np.exp(-np.abs(x)), input)
    return y, buffer
