"""Sigmoid."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS, as_result, compute_dtype


@register("Sigmoid", family="activation", dtypes=FLOATS)
def sigmoid(input):
    """Logistic function: y = 1 / (1 + exp(-x)), elementwise.

    Argument: input (float16 computed in float32, float32, float64); output
    has its dtype. Saturates to exactly 0 / 1 (exp overflow is expected).
    """
    x = input.astype(compute_dtype(input.dtype), copy=False)
    with np.errstate(over="ignore"):
        y = 1 / (1 + np.exp(-x))
    return as_result(y, input.dtype)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("Sigmoid", "numba")
def sigmoid_numba(input):
    """Sigmoid of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_SIGMOID, sigmoid, input)
