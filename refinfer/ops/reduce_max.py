"""ReduceMax."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.reduce import reduce_axes


@register("ReduceMax", family="reduction", dtypes=ALL,
          convert={"axis": args.axes, "keep_dims": args.boolean},
          kernels={"numba": reduce.trailing(reduce.MAX)})
def reduce_max(x, axis=(), keep_dims=False):
    """Maximum over the given axes.

    Arguments: x; axis=() (int, tuple or 1-D tensor; () means every axis);
    keep_dims=False. Output keeps x's dtype. NaN propagates (IEEE, as
    documented; MindSpore 2.7.1's CPU kernel skips NaN: [1, nan, 3] -> 3).
    Reducing an empty axis is an error.
    """
    return np.asarray(np.max(x, axis=reduce_axes(axis, x.ndim),
                             keepdims=keep_dims))
