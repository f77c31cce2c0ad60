"""ReduceAll."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.reduce import reduce_axes


@register("ReduceAll", family="reduction", dtypes=ALL, no_kernel="native",
          convert={"axis": args.axes, "keep_dims": args.boolean})
def reduce_all(input, axis=None, keep_dims=False):
    """Logical and over the given axes (Tensor.all, ops.all): bool result.

    Arguments: input (any dtype: nonzero is True); axis=None (None or ()
    means every axis); keep_dims=False. An empty reduction is True.
    """
    return np.asarray(np.all(input, axis=reduce_axes(axis, input.ndim),
                             keepdims=keep_dims))
