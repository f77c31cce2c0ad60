"""Partial."""
from refinfer.closure import Closure
from refinfer.registry import register


@register("Partial", family="control")
def partial(fn, *bound):
    """Bind leading arguments to a function value: y = fn(bound..., *rest)
    when later called. ``fn`` is a graph or another closure."""
    return Closure(fn, tuple(bound))
