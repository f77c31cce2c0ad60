"""Tanh."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS, as_result, compute_dtype


@register("Tanh", family="activation", dtypes=FLOATS)
def tanh(input):
    """Hyperbolic tangent, elementwise.

    Argument: input (float16 computed in float32, float32, float64); output
    has its dtype.
    """
    x = input.astype(compute_dtype(input.dtype), copy=False)
    return as_result(np.tanh(x), input.dtype)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("Tanh", "numba")
def tanh_numba(input):
    """Tanh of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_TANH, tanh, input)
