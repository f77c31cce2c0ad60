"""SequenceCount."""
from refinfer.registry import register

from ._ref.sequence import same_element


@register("SequenceCount", family="plumbing")
def sequence_count(sequence, target):
    """How many elements of a tuple or list equal ``target``:
    out = sequence.count(target) (an int).

    Arguments: sequence (tuple or list); target (a scalar or tensor).
    """
    return sum(same_element(item, target) for item in sequence)
