"""Nansum."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
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


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("Nansum", "numba")
def nansum_numba(input, dim=None, keepdim=False, dtype=None):
    """Nansum of float32/float64 tensors (cast first to a float ``dtype``)
    with the reduction runner; integer sums and other dtypes through the
    reference."""
    fast = None
    if input.dtype.kind == "f" and (dtype is None or np.dtype(dtype).kind == "f"):
        work = input if dtype is None else input.astype(dtype)
        fast = _fast_reduce.reduce(_fast_reduce.NANSUM, work, dim, keepdim)
    return _fast_reduce.or_reference(fast, nansum, input, dim, keepdim, dtype)
