"""Addcdiv, AddcdivExt."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import ADDCDIV
from ._ref.common import FLOATS, as_result
from ._ref.math import common_dtype


@register("Addcdiv", "AddcdivExt", family="elementwise", dtypes=FLOATS, recipe=ADDCDIV)
def addcdiv(input, tensor1, tensor2, value=1):
    """Elementwise y = input + value * tensor1 / tensor2, with broadcasting.

    Arguments: input, tensor1, tensor2 (tensors); value=1 (Addcdiv: a
    tensor, often a 0-d constant; AddcdivExt, what mint.addcdiv exports: a
    Python number). Computed in the operands' promoted dtype; division by
    zero follows IEEE. MindSpore 2.7.1 has no CPU kernel for AddcdivExt.
    """
    a, t1, t2, v = common_dtype(input, tensor1, tensor2, value)
    with np.errstate(all="ignore"):
        return as_result(a + v * np.true_divide(t1, t2), a.dtype)
