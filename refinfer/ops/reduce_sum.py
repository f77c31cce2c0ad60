"""ReduceSum."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.reduce import reduce_axes, total


@register("ReduceSum", family="reduction", dtypes=ALL,
          convert={"axis": args.axes, "keep_dims": args.boolean,
                   "skip_mode": args.boolean},
          kernels={"numba": reduce.reduce_sum})
def reduce_sum(x, axis=(), keep_dims=False, skip_mode=False):
    """Sum over the given axes.

    Arguments: x; axis=() (int, tuple or 1-D tensor; () means every axis);
    keep_dims=False; skip_mode=False: when True and axis is empty, x is
    returned unchanged (as documented; MindSpore 2.7.1's CPU kernel instead
    broadcasts the total sum to x's shape).

    Output keeps x's dtype: integer sums wrap on overflow (int8 [100, 100]
    -> -56), a bool sum is a logical or; float16 accumulates in float32.
    """
    if skip_mode and not axis:
        return x
    return total(x, reduce_axes(axis, x.ndim), keep_dims)
