"""SequenceMax."""
from refinfer.registry import register

from ._ref.sequence import not_empty


@register("SequenceMax", family="plumbing")
def sequence_max(sequence):
    """The largest element of a tuple or list of scalars: out = max(sequence)
    (the first of equal ones, as Python's ``max``).

    Argument: sequence (tuple or list of scalars, not empty).
    """
    return max(not_empty(sequence, "SequenceMax"))
