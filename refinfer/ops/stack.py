"""Stack."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.search import one_axis
from ._ref.sequence import require_sequence


@register("Stack", "Pack", family="shape", dtypes=ALL, convert={"axis": args.scalar},
          no_kernel="copy", sequences=("x",))
def stack(x, axis=0):
    """Join a tuple of equal-shaped tensors along a new axis.

    Arguments: x (one node input holding a tuple/list of tensors); axis=0
    (negative allowed, in [-rank-1, rank]). Stack is a classic PRIMITIVE in
    MindSpore 2.7.1: axis is an attribute (num and N are bookkeeping).
    Pack is its old name (MindIR files of older MindSpore versions; 2.7.1's
    ops.Pack exports Stack).
    """
    require_sequence(x, "Stack")
    tensors = list(x)
    rank = np.ndim(tensors[0]) if tensors else 0
    return np.stack(tensors, axis=one_axis(axis, rank + 1))    # a new axis
