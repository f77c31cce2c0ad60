"""SequenceMin."""
from refinfer.registry import register

from ._ref.sequence import not_empty


@register("SequenceMin", family="plumbing")
def sequence_min(sequence):
    """The smallest element of a tuple or list of scalars: out = min(sequence)
    (the first of equal ones, as Python's ``min``).

    Argument: sequence (tuple or list of scalars, not empty).
    """
    return min(not_empty(sequence, "SequenceMin"))
