"""Nansum."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._common import ALL
from .sum_ext import sum_ext


@register("Nansum", family="reduction", dtypes=ALL,
          convert={"dim": args.axes, "keepdim": args.boolean,
                   "dtype": args.optional_dtype})
def nansum(input, dim=None, keepdim=False, dtype=None):
    """Sum over the given dims with NaN counted as 0 (mint.nansum).

    Arguments and dtypes as SumExt. MindSpore 2.7.1 has no CPU kernel for
    it (ops.nansum exports IsNan, MaskedFill, ReduceSum).
    """
    if input.dtype.kind == "f":
        input = np.where(np.isnan(input), input.dtype.type(0), input)
    return sum_ext(input, dim, keepdim, dtype)
