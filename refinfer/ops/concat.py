"""Concat."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.sequence import require_sequence


@register("Concat", family="shape", dtypes=ALL, convert={"axis": args.scalar},
          no_kernel="copy", sequences=("tensors",))
def concat(tensors, axis=0):
    """Join a tuple of tensors along an existing axis.

    Arguments: tensors (a tuple/list of tensors of one rank >= 1, equal
    except along axis); axis=0 (negative allowed). MindSpore requires one
    dtype; mixed inputs here take NumPy's common dtype.
    """
    require_sequence(tensors, "Concat")
    return np.concatenate(list(tensors), axis=int(axis))
