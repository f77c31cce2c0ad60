"""ListAppend."""
from refinfer.registry import register

from ._ref.sequence import require_sequence


@register("ListAppend", family="plumbing")
def list_append(input_data, target):
    """A copy of a list with one element added at its end:
    out = input_data + [target], as ``lst.append(x)`` in a graph (graph
    values are immutable; ``Scan`` collects its outputs this way).

    Arguments: input_data (list); target (any value).
    """
    require_sequence(input_data, "ListAppend")
    return [*input_data, target]
