"""Reciprocal."""
from refinfer.registry import register

from ._kernels.elementwise import RECIPROCAL
from ._ref.common import ALL
from ._ref.math import unary_float


@register("Reciprocal", family="elementwise", dtypes=ALL, recipe=RECIPROCAL)
def reciprocal(input):
    """Elementwise reciprocal: y = 1 / x.

    Argument: input. Floats keep their dtype (1 / 0 = inf); integer and bool
    inputs give float32 (int32 [0, 2] -> [inf, 0.5]), as MindSpore 2.7.1 CPU.
    """
    return unary_float(lambda x: 1 / x, input)
