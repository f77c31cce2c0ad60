"""Neg."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS, as_result


@register("Neg", family="elementwise", dtypes=NUMBERS)
def neg(input):
    """Elementwise negation: y = -x, same dtype.

    Integers wrap (int8 -128 -> -128, uint8 1 -> 255); bool is rejected.
    """
    return as_result(np.negative(input))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("Neg", "numba")
def neg_numba(input):
    """Neg of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_NEG, neg, input)
