"""ExpandAs."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL


@register("ExpandAs", family="shape", dtypes=ALL, no_kernel="copy")
def expand_as(input, other):
    """Broadcast input to other's shape (only other's shape is used).

    NumPy broadcasting rules; see BroadcastTo. All dtypes.
    """
    return np.broadcast_to(input, other.shape).copy()
