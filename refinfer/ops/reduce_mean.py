"""ReduceMean."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import NUMBERS
from ._ref.reduce import mean, reduce_axes


@register("ReduceMean", family="reduction", dtypes=NUMBERS,
          convert={"axis": args.axes, "keep_dims": args.boolean},
          kernels={"numba": reduce.trailing(reduce.MEAN)})
def reduce_mean(x, axis=(), keep_dims=False):
    """Arithmetic mean over the given axes.

    Arguments: x; axis=() (int, tuple or 1-D tensor; () means every axis);
    keep_dims=False. Output keeps x's dtype; float16 accumulates in
    float32; an empty reduction gives NaN. Integer means truncate toward
    zero after a sum that wraps in the input dtype (MindSpore CPU); bool
    inputs are rejected, as in MindSpore.
    """
    return mean(x, reduce_axes(axis, x.ndim), keep_dims)
