"""tuple_equal and list_equal."""
from refinfer.registry import register

from ._ref.sequence import compare


@register("tuple_equal", "list_equal", family="plumbing")
def sequence_equal(x, y):
    """Whether tuple (or list) x is equal y: out = x == y, Python's
    lexicographic comparison (a Python bool).

    Arguments: x, y (two tuples or two lists of scalars or tensors; tensors
    are equal when their shapes and all their values are).
    """
    return compare(x, y, "eq")
