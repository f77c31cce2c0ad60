"""Addcmul, AddcmulExt."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import ADDCMUL
from ._ref.common import NUMBERS, as_result
from ._ref.math import common_dtype


@register("Addcmul", "AddcmulExt", family="elementwise", dtypes=NUMBERS, recipe=ADDCMUL)
def addcmul(input, tensor1, tensor2, value=1):
    """Elementwise y = input + value * tensor1 * tensor2, with broadcasting.

    Arguments: input, tensor1, tensor2 (tensors); value=1 (Addcmul: a
    tensor, often a 0-d constant; AddcmulExt, what mint.addcmul exports: a
    Python number). Computed in the operands' promoted dtype (integers
    wrap). MindSpore 2.7.1 has no CPU kernel for AddcmulExt.
    """
    a, t1, t2, v = common_dtype(input, tensor1, tensor2, value)
    with np.errstate(over="ignore"):
        return as_result(a + v * t1 * t2, a.dtype)
