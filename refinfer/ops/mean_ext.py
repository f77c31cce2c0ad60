"""MeanExt."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS, cast
from ._ref.reduce import mean, reduce_axes


@register("MeanExt", family="reduction", dtypes=NUMBERS,
          convert={"dim": args.axes, "keepdim": args.boolean,
                   "dtype": args.optional_dtype})
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


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("MeanExt", "numba")
def mean_ext_numba(input, dim=None, keepdim=False, dtype=None):
    """Mean over trailing dims of a float tensor (no dtype argument), row by
    row; anything else through the reference."""
    return _fast.reduction(_fast.MEAN, mean_ext, (input, dim, keepdim, dtype),
                           input, dim, keepdim, dtype is None)
