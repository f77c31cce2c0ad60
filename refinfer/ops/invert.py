"""Invert."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import INTS, as_result


@register("Invert", family="elementwise", dtypes=INTS + ("bool",),
          kernels={"numba": logic.invert})
def invert(input):
    """Elementwise bitwise not: y = ~x (two's complement: ~5 = -6).

    Argument: input (integer; bool gives logical not). Same dtype.
    """
    if input.dtype.kind == "f":
        raise TypeError("Invert needs an integer or bool input")
    return as_result(np.invert(input))
