"""Maximum."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import binary
from ._kernels.program import OP_MAX
from ._ref.common import ALL, as_result, promote


@register("Maximum", family="elementwise", dtypes=ALL, recipe=binary(OP_MAX))
def maximum(input, other):
    """Elementwise maximum with broadcasting.

    Arguments: input, other (tensors or Python scalars); dtype follows
    MindSpore's promotion. NaN propagates, as documented (MindSpore 2.7.1's
    CPU kernel returns ``a > b ? a : b``, so max(nan, 1) = 1 there).
    """
    a, b = promote(input, other)
    return as_result(np.maximum(a, b))
