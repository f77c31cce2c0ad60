"""SumExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL, cast
from ._ref.reduce import reduce_axes, total


@register("SumExt", family="reduction", dtypes=ALL,
          convert={"dim": args.axes, "keepdim": args.boolean,
                   "dtype": args.optional_dtype})
def sum_ext(input, dim=None, keepdim=False, dtype=None):
    """Sum over the given dims (ops.sum / Tensor.sum), torch-style dtypes.

    Arguments: input; dim=None (None or () means every axis; int or tuple);
    keepdim=False; dtype=None (TypeId int): when given, input is cast to it
    first (float32 [1.7, 1.7] summed as int32 gives 2). Without dtype, bool
    and integer inputs sum to int64; floats keep their dtype (float16
    accumulates in float32).
    """
    if dtype is not None:
        input = cast(input, dtype)
    elif input.dtype.kind in "biu":
        input = input.astype(np.int64)
    return total(input, reduce_axes(dim, input.ndim), keepdim)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("SumExt", "numba")
def sum_ext_numba(input, dim=None, keepdim=False, dtype=None):
    """Sum over trailing dims of a float tensor (no dtype argument), row by
    row; anything else through the reference."""
    return _fast.reduction(_fast.SUM, sum_ext, (input, dim, keepdim, dtype),
                           input, dim, keepdim, dtype is None)
