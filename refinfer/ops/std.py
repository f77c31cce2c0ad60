"""Std."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import FLOATS, as_result, compute_dtype
from ._ref.reduce import reduce_axes


@register("Std", family="reduction", dtypes=FLOATS,
          convert={"dim": args.axes, "correction": args.scalar,
                   "keepdim": args.boolean},
          kernels={"numba": reduce.std})
def std(input, dim=None, correction=1, keepdim=False):
    """Standard deviation over the given dims (mint.std).

    sqrt(sum((x - mean) ** 2) / (n - correction)). Arguments: input (float);
    dim=None (every dim); correction=1; keepdim=False. MindSpore 2.7.1 has
    no CPU kernel for it.
    """
    work = input.astype(compute_dtype(input.dtype), copy=False)
    with np.errstate(invalid="ignore", divide="ignore"):
        y = np.std(work, axis=reduce_axes(dim, input.ndim), ddof=correction,
                   keepdims=keepdim)
    return as_result(y, input.dtype)
