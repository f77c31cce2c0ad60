"""Tanh."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_TANH
from ._ref.common import FLOATS, as_result, compute_dtype


@register("Tanh", family="activation", dtypes=FLOATS, recipe=unary(OP_TANH))
def tanh(input):
    """Hyperbolic tangent, elementwise.

    Argument: input (float16 computed in float32, float32, float64); output
    has its dtype.
    """
    x = input.astype(compute_dtype(input.dtype), copy=False)
    return as_result(np.tanh(x), input.dtype)
