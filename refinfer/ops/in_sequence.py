"""InSequence."""
from refinfer.registry import register

from ._ref.sequence import same_element


@register("InSequence", family="plumbing")
def in_sequence(element, input_data):
    """Whether ``element`` is in a tuple or list: out = element in input_data
    (a Python bool).

    Arguments: element (a scalar or tensor); input_data (tuple or list).
    Tensors compare equal when shape and every value are equal.
    """
    return any(same_element(item, element) for item in input_data)
