"""Mish, MishExt."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_MISH
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Mish", "MishExt", family="activation", dtypes=FLOATS, recipe=unary(OP_MISH))
def mish(input):
    """Mish: y = x * tanh(softplus(x)) = x * tanh(ln(1 + e ** x)).

    Argument: input; float16 is computed in float32. MishExt is what
    mint.nn.functional.mish exports (no CPU kernel in MindSpore 2.7.1).
    """
    return unary_float(lambda x: x * np.tanh(np.logaddexp(0, x)), input)
