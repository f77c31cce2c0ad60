"""Dense."""
from refinfer.registry import register

from ._ref.common import NUMBERS, as_result, matmul, promote


@register("Dense", family="nn", dtypes=NUMBERS)
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


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402
from . import mat_mul  # noqa: E402


@register_kernel("Dense", "numba")
def dense_numba(input, weight, bias=None):
    """Dense on BLAS through MatMul's fused kernel (rows split across the
    worker threads, the bias added in the same pass); a 1-D weight, a
    broadcast bias and other dtypes through the reference."""
    operands = (input, weight) if bias is None else (input, weight, bias)
    if _fast.float_operands(*operands) is None or weight.ndim != 2 \
            or input.ndim == 0 or input.shape[-1] != weight.shape[1] \
            or (bias is not None and bias.shape != weight.shape[:1]):
        return dense(input, weight, bias)
    return mat_mul.fused_matmul(input, weight.T, None if bias is None
                        else _fast.writable(bias), _fast.ACT_NONE)
