"""ExpandAs."""
from refinfer.registry import register

from ._ref.common import ALL
from .broadcast_to import broadcast_to


@register("ExpandAs", family="shape", dtypes=ALL, no_kernel="copy")
def expand_as(input, other):
    """Broadcast input to other's shape (only other's shape is used).

    NumPy broadcasting rules; see BroadcastTo. All dtypes.
    """
    return broadcast_to(input, other.shape)
