"""Dense."""
from refinfer.registry import register

from ._kernels import gemm
from ._ref.common import NUMBERS, as_result, matmul, promote


@register("Dense", family="nn", dtypes=NUMBERS, kernels={"numba": gemm.dense})
def dense(input, weight, bias=None):
    """Fully connected layer: y = input @ weight.T + bias.

    Arguments: input (..., in), weight (out, in) or (in,) (then y drops the
    last axis), bias=None (broadcast against y). Output dtype: the operands'
    promoted dtype (MindSpore requires them equal). float16 accumulates in
    float32.
    """
    y = matmul(input, weight.T)
    if bias is None:
        return y
    y, b = promote(y, bias)
    return as_result(y + b)
