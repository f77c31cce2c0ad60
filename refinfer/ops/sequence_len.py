"""sequence_len."""
from refinfer.registry import register


@register("sequence_len", family="plumbing")
def sequence_len(sequence):
    """The number of elements of a tuple or list: out = len(sequence) (an
    int), as ``len`` in a graph on a sequence whose length is only known at
    run time.

    Argument: sequence (tuple or list).
    """
    return len(sequence)
