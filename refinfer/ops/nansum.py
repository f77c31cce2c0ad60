"""Nansum."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.reduce import typed_sum


@register("Nansum", family="reduction", dtypes=ALL,
          convert={"dim": args.axes, "keepdim": args.boolean,
                   "dtype": args.optional_dtype},
          kernels={"numba": reduce.nansum})
def nansum(input, dim=None, keepdim=False, dtype=None):
    """Sum over the given dims with NaN counted as 0 (mint.nansum).

    Arguments and dtypes as SumExt. MindSpore 2.7.1 has no CPU kernel for
    it (ops.nansum exports IsNan, MaskedFill, ReduceSum).
    """
    if input.dtype.kind == "f":
        input = np.where(np.isnan(input), input.dtype.type(0), input)
    return typed_sum(input, dim, keepdim, dtype)
