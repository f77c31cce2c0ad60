"""LogicalXor."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, as_result


@register("LogicalXor", family="comparison", dtypes=ALL,
          kernels={"numba": logic.one_pass(np.logical_xor)})
def logical_xor(input, other):
    """Elementwise logical exclusive or with broadcasting (bool result).

    Arguments: input, other (tensors of any dtype or Python scalars; nonzero,
    NaN included, is True).
    """
    return as_result(np.logical_xor(input, other))
