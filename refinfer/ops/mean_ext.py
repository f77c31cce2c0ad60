"""MeanExt."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import NUMBERS, cast
from ._ref.reduce import mean, reduce_axes


@register("MeanExt", family="reduction", dtypes=NUMBERS,
          convert={"dim": args.axes, "keepdim": args.boolean,
                   "dtype": args.optional_dtype},
          kernels={"numba": reduce.trailing_without_dtype(reduce.MEAN)})
def mean_ext(input, dim=None, keepdim=False, dtype=None):
    """Arithmetic mean over the given dims (ops.mean / Tensor.mean).

    Arguments: input; dim=None (None or () means every axis; int or tuple);
    keepdim=False; dtype=None (TypeId int): when given, input is cast to it
    first. Output keeps the (cast) input's dtype: MindSpore 2.7.1 CPU
    returns integer means truncated toward zero (int32 [-1, -2, -4] -> -2).
    """
    if dtype is not None:
        input = cast(input, dtype)
    return mean(input, reduce_axes(dim, input.ndim), keepdim)
