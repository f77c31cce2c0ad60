"""SequenceUnstack."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("SequenceUnstack", family="plumbing", dtypes=ALL,
          convert={"axis": args.scalar})
def sequence_unstack(x, axis=0, num=None):
    """A tensor split along ``axis`` into the tuple of its slices:
    out[i] = x.take(i, axis) (as Unstack, whose sequence form this is).

    Arguments: x (a tensor of rank >= 1); axis=0; num=None (MindSpore's
    length hint, x.shape[axis]; not needed here).
    """
    if x.ndim == 0:
        raise ValueError("SequenceUnstack: x must have rank >= 1, got a 0-d tensor")
    return tuple(np.moveaxis(x, int(axis), 0))
