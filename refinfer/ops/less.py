"""Less."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, as_result, promote


@register("Less", family="comparison", dtypes=ALL,
          kernels={"numba": logic.comparison(np.less)})
def less(input, other):
    """Elementwise comparison with broadcasting: y = input < other (bool).

    Arguments: input, other (tensors or Python scalars), promoted as for
    arithmetic first, so a Python int wraps into an integer tensor's dtype
    (uint8 tensor < -1 compares with 255, as MindSpore does) and a float
    scalar against an integer tensor compares in float32.
    """
    a, b = promote(input, other)
    return as_result(np.less(a, b))
