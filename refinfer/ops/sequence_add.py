"""SequenceAdd."""
from refinfer.registry import register


@register("SequenceAdd", family="plumbing")
def sequence_add(input_1, input_2):
    """Concatenation of two tuples or two lists: out = input_1 + input_2, as
    Python's ``+`` on sequences. The result has input_1's kind.

    Arguments: input_1, input_2 (tuples or lists).
    """
    items = [*input_1, *input_2]
    return items if isinstance(input_1, list) else tuple(items)
