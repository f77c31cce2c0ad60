"""Sigmoid."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_SIGMOID
from ._ref.common import FLOATS, as_result, compute_dtype, require_dtype


@register("Sigmoid", family="activation", dtypes=FLOATS, recipe=unary(OP_SIGMOID))
def sigmoid(input):
    """Logistic function: y = 1 / (1 + exp(-x)), elementwise.

    Argument: input (float16 computed in float32, float32, float64); output
    has its dtype. Saturates to exactly 0 / 1 (exp overflow is expected).
    """
    require_dtype("Sigmoid", "input", input, FLOATS)
    x = input.astype(compute_dtype(input.dtype), copy=False)
    with np.errstate(over="ignore"):
        y = 1 / (1 + np.exp(-x))
    return as_result(y, input.dtype)
