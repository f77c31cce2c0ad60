"""HSigmoid."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_HSIGMOID
from ._ref.common import NUMBERS
from ._ref.math import real_or_truncated


@register("HSigmoid", family="activation", dtypes=NUMBERS, recipe=unary(OP_HSIGMOID))
def hsigmoid(input):
    """Hard sigmoid: y = min(max(x + 3, 0), 6) / 6, elementwise.

    Argument: input; output has its dtype (float16 is computed in float32).
    Integer inputs give the real result truncated toward zero, as MindSpore
    2.7.1 CPU (int32 [2, 3] -> [0, 1]).
    """
    return real_or_truncated(lambda x: np.clip(x + 3, 0, 6) / 6, input)
