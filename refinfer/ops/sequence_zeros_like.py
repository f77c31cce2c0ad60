"""SequenceZerosLike."""
import numpy as np

from refinfer.registry import register


@register("SequenceZerosLike", family="plumbing")
def sequence_zeros_like(sequence):
    """A tuple or list of the same kind and length whose every element is a
    zero of that element's type: 0 for ints, False for bools, a float zero of
    the element's width, a zero tensor of a tensor's shape and dtype.

    Argument: sequence (tuple or list of scalars or tensors).
    """
    zeros = [_zero(item) for item in sequence]
    return zeros if isinstance(sequence, list) else tuple(zeros)


def _zero(item):
    if isinstance(item, (tuple, list)):
        return sequence_zeros_like(item)
    if isinstance(item, np.ndarray):
        return np.zeros_like(item)
    return type(item)(0)
