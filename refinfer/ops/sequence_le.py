"""tuple_le and list_le."""
from refinfer.registry import register

from ._ref.sequence import compare


@register("tuple_le", "list_le", family="plumbing")
def sequence_le(x, y):
    """Whether tuple (or list) x is less than or equal to y: out = x <= y, Python's
    lexicographic comparison (a Python bool).

    Arguments: x, y (two tuples or two lists of scalars; one-element
    tensors count as their value).
    """
    return compare(x, y, "le")
