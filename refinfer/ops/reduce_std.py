"""ReduceStd."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import FLOATS, as_result, compute_dtype
from ._ref.reduce import reduce_axes


@register("ReduceStd", family="reduction", dtypes=FLOATS,
          convert={"axis": args.axes, "unbiased": args.boolean,
                   "keep_dims": args.boolean},
          kernels={"numba": reduce.reduce_std})
def reduce_std(x, axis=(), unbiased=True, keep_dims=False):
    """Standard deviation and mean over the given axes: (std, mean).

    What ops.std / ops.var / ops.var_mean export. Arguments: x (float);
    axis=() (() means every axis); unbiased=True (divide by n - 1, else n);
    keep_dims=False. float16 is computed in float32.
    """
    axes = reduce_axes(axis, x.ndim)
    work = x.astype(compute_dtype(x.dtype), copy=False)
    with np.errstate(invalid="ignore", divide="ignore"):
        std = np.std(work, axis=axes, ddof=int(unbiased), keepdims=keep_dims)
        mean = np.mean(work, axis=axes, keepdims=keep_dims)
    return as_result(std, x.dtype), as_result(mean, x.dtype)
