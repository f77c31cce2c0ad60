"""tuple_greater_equal and list_greater_equal."""
from refinfer.registry import register

from ._ref.sequence import compare


@register("tuple_greater_equal", "list_greater_equal", family="plumbing")
def sequence_ge(x, y):
    """Whether tuple (or list) x is greater than or equal to y: out = x >= y, Python's
    lexicographic comparison (a Python bool).

    Arguments: x, y (two tuples or two lists of scalars; one-element
    tensors count as their value).
    """
    return compare(x, y, "ge")
