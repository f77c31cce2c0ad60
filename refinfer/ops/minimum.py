"""Minimum."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result, promote


@register("Minimum", family="elementwise", dtypes=ALL)
def minimum(input, other):
    """Elementwise minimum with broadcasting.

    Arguments: input, other (tensors or Python scalars); dtype follows
    MindSpore's promotion. NaN propagates, as documented (MindSpore 2.7.1's
    CPU kernel returns ``a < b ? a : b``, so min(nan, 1) = 1 there).
    """
    a, b = promote(input, other)
    return as_result(np.minimum(a, b))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("Minimum", "numba")
def minimum_numba(input, other):
    """Minimum of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_MIN, minimum, input, other)
