"""Load, Depend and UpdateState: side-effect ordering, no computation."""
from refinfer.format.values import MONAD
from refinfer.registry import register


@register("Load", "Depend", family="plumbing")
def depend(value, *ordering):
    """y = value. ``Load(param, U)`` reads a parameter; ``Depend(x, state)``
    orders execution. The graph builder resolves both as aliases of
    ``value``, so this kernel runs only where they are used as values."""
    return value


@register("UpdateState", family="plumbing")
def update_state(state, *effects):
    """y = the monad token; only orders side effects. Resolved at build."""
    return MONAD
