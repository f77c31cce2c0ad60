"""LogSumExp."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import FLOATS, as_result, compute_dtype
from ._ref.reduce import reduce_axes


@register("LogSumExp", family="reduction", dtypes=FLOATS,
          convert={"dim": args.axes, "keepdim": args.boolean},
          kernels={"numba": reduce.log_sum_exp})
def log_sum_exp(input, dim, keepdim=False):
    """Log of the sum of exponentials over the given dims (mint.logsumexp).

    y = ln(sum(e ** x)), computed without overflow as m + ln(sum(e ** (x - m))),
    m the maximum (0 where it is infinite). Arguments: input (float); dim
    (int or tuple); keepdim=False.
    ops.logsumexp exports that formula as ReduceMax, Sub, Exp, SumExt, Log,
    Add instead. MindSpore 2.7.1 has no CPU kernel for LogSumExp.
    """
    axes = reduce_axes(dim, input.ndim)
    x = input.astype(compute_dtype(input.dtype), copy=False)
    m = np.max(x, axis=axes, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        y = np.log(np.sum(np.exp(x - m), axis=axes, keepdims=True)) + m
    return as_result(y if keepdim else np.squeeze(y, axes), input.dtype)
