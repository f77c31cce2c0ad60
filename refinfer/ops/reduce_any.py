"""ReduceAny."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL, require_tensors
from ._ref.reduce import reduce_axes


@register("ReduceAny", family="reduction", dtypes=ALL, no_kernel="native",
          convert={"axis": args.axes, "keep_dims": args.boolean})
def reduce_any(x, axis=(), keep_dims=False):
    """Logical or over the given axes (Tensor.any, ops.any).

    Arguments: x (any dtype: nonzero is True); axis=() (() means every
    axis); keep_dims=False. The result is bool, except for a uint8 input,
    which gives uint8 0 / 1 (MindSpore 2.7.1 CPU). An empty reduction is
    False.
    """
    require_tensors("ReduceAny", x=x)
    y = np.asarray(np.any(x, axis=reduce_axes(axis, x.ndim), keepdims=keep_dims))
    return y.astype(np.uint8) if x.dtype == np.uint8 else y
