"""Minimum."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import binary
from ._kernels.program import OP_MIN
from ._ref.common import ALL, as_result, promote


@register("Minimum", family="elementwise", dtypes=ALL, recipe=binary(OP_MIN))
def minimum(input, other):
    """Elementwise minimum with broadcasting.

    Arguments: input, other (tensors or Python scalars); dtype follows
    MindSpore's promotion. NaN propagates, as documented (MindSpore 2.7.1's
    CPU kernel returns ``a < b ? a : b``, so min(nan, 1) = 1 there).
    """
    a, b = promote(input, other)
    return as_result(np.minimum(a, b))
