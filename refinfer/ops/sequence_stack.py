"""SequenceStack."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.sequence import not_empty


@register("SequenceStack", family="plumbing", dtypes=ALL, no_kernel="copy",
          convert={"axis": args.scalar})
def sequence_stack(x, axis=0):
    """The tensors of a tuple or list stacked along a new axis:
    out = np.stack(x, axis) (as Stack, whose sequence form this is).

    Arguments: x (tuple or list of tensors of one shape and dtype, not
    empty); axis=0 (in [-(rank + 1), rank]).
    """
    return np.stack(not_empty(x, "SequenceStack"), axis=int(axis))
