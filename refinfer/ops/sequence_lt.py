"""tuple_lt and list_lt."""
from refinfer.registry import register

from ._ref.sequence import compare


@register("tuple_lt", "list_lt", family="plumbing")
def sequence_lt(x, y):
    """Whether tuple (or list) x is less than y: out = x < y, Python's
    lexicographic comparison (a Python bool).

    Arguments: x, y (two tuples or two lists of scalars; one-element
    tensors count as their value).
    """
    return compare(x, y, "lt")
