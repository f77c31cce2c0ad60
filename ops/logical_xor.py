"""LogicalXor."""
import numpy as np

from refinfer.registry import register

from ._common import ALL, as_result


@register("LogicalXor", family="comparison", dtypes=ALL)
def logical_xor(input, other):
    """Elementwise logical exclusive or with broadcasting (bool result).

    Arguments: input, other (tensors of any dtype or Python scalars; nonzero,
    NaN included, is True).
    """
    return as_result(np.logical_xor(input, other))
