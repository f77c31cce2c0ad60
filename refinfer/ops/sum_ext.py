"""SumExt."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.reduce import typed_sum


@register("SumExt", family="reduction", dtypes=ALL,
          convert={"dim": args.axes, "keepdim": args.boolean,
                   "dtype": args.optional_dtype},
          kernels={"numba": reduce.trailing_without_dtype(reduce.SUM)})
def sum_ext(input, dim=None, keepdim=False, dtype=None):
    """Sum over the given dims (ops.sum / Tensor.sum), torch-style dtypes.

    Arguments: input; dim=None (None or () means every axis; int or tuple);
    keepdim=False; dtype=None (TypeId int): when given, input is cast to it
    first (float32 [1.7, 1.7] summed as int32 gives 2). Without dtype, bool
    and integer inputs sum to int64; floats keep their dtype (float16
    accumulates in float32).
    """
    return typed_sum(input, dim, keepdim, dtype)
