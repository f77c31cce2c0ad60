"""LogicalNot."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, as_result


@register("LogicalNot", family="comparison", dtypes=ALL,
          kernels={"numba": logic.one_pass(np.logical_not)})
def logical_not(input):
    """Elementwise logical not (bool result): True where input is zero.

    Argument: input (any dtype; NaN counts as nonzero, so gives False).
    """
    return as_result(np.logical_not(input))
