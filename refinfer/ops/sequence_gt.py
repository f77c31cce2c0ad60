"""tuple_greater_than and list_greater_than."""
from refinfer.registry import register

from ._ref.sequence import compare


@register("tuple_greater_than", "list_greater_than", family="plumbing")
def sequence_gt(x, y):
    """Whether tuple (or list) x is greater than y: out = x > y, Python's
    lexicographic comparison (a Python bool).

    Arguments: x, y (two tuples or two lists of scalars; one-element
    tensors count as their value).
    """
    return compare(x, y, "gt")
