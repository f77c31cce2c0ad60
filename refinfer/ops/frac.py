"""Frac."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import FRAC
from ._ref.common import NUMBERS, as_result


@register("Frac", family="elementwise", dtypes=NUMBERS, recipe=FRAC)
def frac(input):
    """Elementwise fractional part: y = x - trunc(x), with x's sign.

    Argument: input; output has its dtype (integers give 0). What mint.frac
    exports (ops.frac exports Mod(x, 1.0)); MindSpore 2.7.1 has no CPU
    kernel for it.
    """
    if input.dtype.kind != "f":
        return np.zeros_like(input)
    return as_result(input - np.trunc(input), input.dtype)
