"""Function values that flow through graphs: graphs and partial applications.

``Partial(graph, a, b)`` yields a :class:`Closure`; ``Switch`` picks one of
two closures; a node whose op is another node calls the picked value. The
executor unwraps closures into a graph plus its bound arguments.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GraphRef:
    """A graph of the model used as a value."""
    name: str


@dataclass(frozen=True)
class Closure:
    """``fn`` with leading arguments already bound."""
    fn: Any
    args: tuple

    def unwrap(self) -> tuple[Any, tuple]:
        fn, args = self.fn, self.args
        while isinstance(fn, Closure):
            fn, args = fn.fn, fn.args + args
        return fn, args
