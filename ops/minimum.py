"""Minimum."""
import numpy as np

from refinfer.registry import register

from ._common import ALL, as_result, promote


@register("Minimum", family="elementwise", dtypes=ALL)
def minimum(input, other):
    """Elementwise minimum with broadcasting.

    Arguments: input, other (tensors or Python scalars); dtype follows
    MindSpore's promotion. NaN propagates, as documented (MindSpore 2.7.1's
    CPU kernel returns ``a < b ? a : b``, so min(nan, 1) = 1 there).
    """
    a, b = promote(input, other)
    return as_result(np.minimum(a, b))
