"""StackExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("StackExt", family="shape", dtypes=ALL, convert={"dim": args.scalar},
          no_kernel="copy", sequences=("tensors",))
def stack_ext(tensors, dim=0):
    """Join equal-shaped tensors along a new axis, as Stack (mint.stack).

    Arguments: tensors (tuple); dim=0 (in [-rank-1, rank]). MindSpore 2.7.1
    cannot run it on CPU. All dtypes.
    """
    return np.stack(list(tensors), axis=int(dim))
