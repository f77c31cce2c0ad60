"""FastGeLU."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_FAST_GELU
from ._ref.common import FLOATS
from ._ref.math import unary_float


def fast_gelu_math(x):
    return x / (1 + np.exp(-1.702 * np.abs(x))) * np.exp(0.851 * (x - np.abs(x)))


@register("FastGeLU", family="activation", dtypes=FLOATS, recipe=unary(OP_FAST_GELU))
def fast_gelu(x):
    """Fast GeLU: y = x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|)).

    That is x * sigmoid(1.702 x), written without overflow. Argument: x;
    float16 is computed in float32.
    """
    return unary_float(fast_gelu_math, x)
