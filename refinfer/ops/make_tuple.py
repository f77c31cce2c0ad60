"""MakeTuple and make_list."""
from refinfer.registry import register


@register("MakeTuple", family="plumbing")
def make_tuple(*elements):
    """Build a tuple from the node's inputs: y = (e0, e1, ...)."""
    return tuple(elements)


@register("make_list", family="plumbing")
def make_list(*elements):
    """Build a list from the node's inputs: y = [e0, e1, ...]."""
    return list(elements)
