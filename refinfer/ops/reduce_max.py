"""ReduceMax."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.reduce import reduce_axes


@register("ReduceMax", family="reduction", dtypes=ALL,
          convert={"axis": args.axes, "keep_dims": args.boolean})
def reduce_max(x, axis=(), keep_dims=False):
    """Maximum over the given axes.

    Arguments: x; axis=() (int, tuple or 1-D tensor; () means every axis);
    keep_dims=False. Output keeps x's dtype. NaN propagates (IEEE, as
    documented; MindSpore 2.7.1's CPU kernel skips NaN: [1, nan, 3] -> 3).
    Reducing an empty axis is an error.
    """
    return np.asarray(np.max(x, axis=reduce_axes(axis, x.ndim),
                             keepdims=keep_dims))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("ReduceMax", "numba")
def reduce_max_numba(x, axis=(), keep_dims=False):
    """Maximum over trailing axes of a float tensor, row by row; anything
    else through the reference."""
    return _fast.reduction(_fast.MAX, reduce_max, (x, axis, keep_dims), x, axis,
                           keep_dims)
