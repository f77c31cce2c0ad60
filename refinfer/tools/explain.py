"""``refinfer explain``: the graph as a readable program.

One line per node, in execution order::

    #3  %3 = Conv2D(%2, conv2.weight, stride=(1, 1), ...)  float32[1,16,10,10]  Default/...

``%k`` are node results, numbered model-wide (graphs in the order main
first, then the rest as their first user names them); model inputs and
weights appear by name, other constants as ``parameter=value``. Sub-graphs
(if/else branches, loop bodies) are printed as functions ``def @name(...)``
and called as ``call @name(...)``; ``Partial``/``Switch`` pass them as
values.
"""
from __future__ import annotations

import numpy as np

from ..closure import GraphRef
from ..graph import Graph, Model, Node, Ref, RefKind
from ..runtime import LoadedModel

MAX_VALUE_TEXT = 32
SMALL_ARRAY = 4


def type_text(abstract) -> str:
    """``float32[1,6,28,28]``, ``(a, b)`` for tuples, the kind otherwise."""
    if abstract is None:
        return "?"
    if abstract.kind == "tuple":
        return "(" + ", ".join(type_text(e) for e in abstract.elements) + ")"
    dtype = abstract.dtype.name if abstract.dtype is not None else None
    if abstract.kind == "tensor":
        shape = ",".join(map(str, abstract.shape))
        return f"{dtype or '?'}[{shape}]"
    if abstract.kind == "scalar":
        return dtype or "scalar"
    return "function" if abstract.kind == "other" else abstract.kind


def value_text(value) -> str:
    """A constant, short: small arrays by value, others by type."""
    if isinstance(value, np.ndarray):
        shape = ",".join(map(str, value.shape))
        if value.size <= SMALL_ARRAY:
            return f"{value.dtype.name}({value.tolist()!r})"
        return f"{value.dtype.name}[{shape}]"
    if isinstance(value, np.dtype):
        return value.name
    if isinstance(value, GraphRef):
        return f"@{value.name}"
    if isinstance(value, np.generic):
        value = value.item()
    text = repr(value)
    return text if len(text) <= MAX_VALUE_TEXT else text[:MAX_VALUE_TEXT] + "…"


class Listing:
    """Model-wide numbering of nodes and the text of each argument."""

    def __init__(self, model: LoadedModel):
        self.model: Model = model.model
        self.graphs: list[Graph] = _graph_order(self.model)
        self.number: dict[str, int] = {}
        self.nodes: list[tuple[Graph, Node]] = []
        for graph in self.graphs:
            for node in graph.nodes:
                self.number[node.name] = len(self.nodes)
                self.nodes.append((graph, node))
        self.weights = {id(value): name.rpartition(":")[2]
                        for g in model.file.graphs
                        for name, value in g.parameters.items()}

    def ref_text(self, graph: Graph, ref: Ref) -> str:
        if ref.kind in (RefKind.NODE, RefKind.FREE):
            return f"%{self.number[ref.key]}" if ref.key in self.number \
                else ref.key
        if ref.kind is RefKind.INPUT:
            return graph.inputs[ref.key].short_name
        if ref.kind is RefKind.GRAPH:
            return f"@{ref.key}"
        if id(ref.key) in self.weights:
            return self.weights[id(ref.key)]
        return value_text(ref.key)

    def arg_text(self, graph: Graph, node: Node, pos: int) -> str | None:
        """Tensors and values from other nodes as themselves; other
        constants as ``parameter=value`` (the op's parameter name), None
        when they equal the op's default."""
        params = node.op.params if node.op is not None else ()
        ref = node.args[pos].ref
        text = self.ref_text(graph, ref)
        named = (ref.kind is RefKind.CONST and pos < len(params)
                 and not params[pos].variadic
                 and id(ref.key) not in self.weights
                 and not isinstance(ref.key, np.ndarray))
        if not named:
            return text
        if _is_default(ref.key, params[pos].default):
            return None
        return f"{params[pos].name}={text}"

    def arg_texts(self, graph: Graph, node: Node) -> list[str]:
        texts = [self.arg_text(graph, node, k) for k in range(len(node.args))]
        return [t for t in texts if t is not None]

    def call_text(self, graph: Graph, node: Node) -> str:
        """``Op(args)``, or ``call @graph(args)`` / ``call %k(args)``."""
        args = ", ".join(self.arg_texts(graph, node))
        if node.op is not None:
            return f"{node.op.name}({args})"
        return f"call {self.ref_text(graph, node.callee)}({args})"

    def signature(self, graph: Graph) -> str:
        inputs = ", ".join(f"{i.short_name}: {type_text(i.abstract)}"
                           for i in graph.inputs if not i.is_monad)
        return f"@{graph.name}({inputs})"


def _is_default(value, default) -> bool:
    if type(value) is not type(default):
        return False
    try:
        return bool(value == default)
    except (TypeError, ValueError):
        return False


def _graph_order(model: Model) -> list[Graph]:
    """Main first, then every other graph the first time it is named."""
    order, seen, queue = [], set(), [model.main.name]
    while queue:
        name = queue.pop(0)
        if name in seen or name not in model.graphs:
            continue
        seen.add(name)
        graph = model.graphs[name]
        order.append(graph)
        for node in graph.nodes:
            refs = [a.ref for a in node.args] + [node.callee]
            queue += [r.key for r in refs if r is not None and r.kind is RefKind.GRAPH]
    order += [g for name, g in model.graphs.items() if name not in seen]
    return order


def explain(model: LoadedModel) -> str:
    """The whole model as a program listing."""
    listing = Listing(model)
    lines = []
    for graph in listing.graphs:
        is_main = graph is listing.model.main
        lines.append(f"{'main' if is_main else 'def'} "
                     f"{listing.signature(graph)}:")
        for _, node in [(g, n) for g, n in listing.nodes if g is graph]:
            k = listing.number[node.name]
            lines.append(f"  #{k:<3} %{k} = {listing.call_text(graph, node)}"
                         f"  {type_text(node.abstract)}  {node.scope}".rstrip())
        lines.append(f"  return {listing.ref_text(graph, graph.output)}"
                     f"  {type_text(graph.output_info.abstract)}")
        lines.append("")
    counts = f"{len(listing.nodes)} node(s) in {len(listing.graphs)} graph(s)"
    return "\n".join(lines + [counts])
