"""Lerp, LerpScalar."""
from refinfer.registry import register

from ._kernels.elementwise import LERP
from ._ref.common import FLOATS, as_result, compute_dtype
from ._ref.math import common_dtype


@register("Lerp", "LerpScalar", family="elementwise", dtypes=FLOATS, recipe=LERP)
def lerp(input, end, weight):
    """Linear interpolation: y = input + weight * (end - input), broadcast.

    Arguments: input, end (float tensors); weight (tensor for Lerp, often a
    0-d constant; Python float for LerpScalar). The result has the operands'
    promoted dtype; float16 is computed in float32.
    """
    operands = common_dtype(input, end, weight)
    work = compute_dtype(operands[0].dtype)
    a, b, w = (v.astype(work, copy=False) for v in operands)
    return as_result(a + w * (b - a), operands[0].dtype)
