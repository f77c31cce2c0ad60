"""Exp."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_EXP
from ._ref.common import ALL, as_float, as_result


@register("Exp", family="elementwise", dtypes=ALL, recipe=unary(OP_EXP))
def exp(input):
    """Elementwise natural exponential: y = e ** x.

    Argument: input. Floats keep their dtype (overflow gives inf); integer
    and bool inputs give float32.
    """
    with np.errstate(over="ignore"):
        return as_result(np.exp(as_float(input)))
