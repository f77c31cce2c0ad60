"""ReduceMin."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.reduce import reduce_axes


@register("ReduceMin", family="reduction", dtypes=NUMBERS, no_kernel="native",
          convert={"axis": args.axes, "keep_dims": args.boolean})
def reduce_min(x, axis=(), keep_dims=False):
    """Minimum over the given axes (ops.amin, ops.reduce_min).

    Arguments: x; axis=() (int, tuple or 1-D tensor; () means every axis);
    keep_dims=False. Output keeps x's dtype. NaN propagates (IEEE, as
    ReduceMax; MindSpore 2.7.1's CPU kernel returns NaN only when it comes
    first in the scan). Reducing an empty axis is an error.
    """
    return np.asarray(np.min(x, axis=reduce_axes(axis, x.ndim),
                             keepdims=keep_dims))

