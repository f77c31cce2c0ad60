"""LogSumExp."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, as_result, compute_dtype
from ._ref.reduce import reduce_axes


@register("LogSumExp", family="reduction", dtypes=FLOATS,
          convert={"dim": args.axes, "keepdim": args.boolean})
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


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("LogSumExp", "numba")
def log_sum_exp_numba(input, dim, keepdim=False):
    """LogSumExp of float32/float64 tensors in one runner call (max, then
    the shifted exponentials' sum); float16 through the reference."""
    return _fast_reduce.or_reference(
        _fast_reduce.reduce(_fast_reduce.LOGSUMEXP, input, dim, keepdim),
        log_sum_exp, input, dim, keepdim)
