"""Fused nodes and the small graph editor the passes share.

A fused node replaces a group of nodes (a convolution and its BatchNorm,
bias and activation; a chain of elementwise ops) by one node that carries
the group's last name, so every consumer still finds its value. Its kernel
is a :class:`FusedKernel`: the fast function, plus the original nodes to
evaluate one by one with the reference kernels whenever the fast function
declines (an unexpected dtype or shape at run time). Fusion therefore never
changes which inputs a model accepts.
"""
from __future__ import annotations

from typing import Callable

from ..graph import Arg, Graph, Node, Ref
from ..ops._kernels import program as _fast
from ..registry import OpDef


class FusedKernel:
    """``fast(*values, *constants)`` or, when it returns None, the group's
    reference kernels. ``values`` are the group's dynamic inputs, in the
    order of the fused node's arguments."""

    def __init__(self, fast: Callable, constants: tuple, nodes: list[Node],
                 inputs: list[Ref]):
        self.fast, self.constants = fast, constants
        self.nodes, self.inputs = nodes, inputs

    def __call__(self, *values):
        result = self.fast(*values, *self.constants)
        return self.reference(values) if result is None else result

    def reference(self, values):
        """Run the original nodes with the reference kernels."""
        known = {ref: v for ref, v in zip(self.inputs, values)
                 if ref.kind != "const"}     # constants: read from the args
        result = None
        for node in self.nodes:
            args = [_value(arg, known) for arg in node.args]
            result = node.op.reference(*args)
            known[Ref("node", node.name)] = result
        return result


def _value(arg: Arg, known: dict):
    if arg.ref.kind == "const":
        return arg.ref.key
    value = known[arg.ref]
    return value if arg.convert is None else arg.convert(value)


def fused_node(nodes: list[Node], fast: Callable, inputs: list[Ref],
               constants: tuple = ()) -> Node:
    """One node computing ``nodes`` (in order; the last one's value) as
    ``fast(*inputs, *constants)``."""
    last = nodes[-1]
    name = "+".join(n.op.name for n in nodes)
    kernel = FusedKernel(fast, constants, nodes, inputs)
    op = OpDef(name, kernel, "fused", (), ())
    args = [Arg(ref) for ref in inputs]
    return Node(last.name, last.scope, op, args, None, last.abstract)


class GraphEditor:
    """Replace groups of nodes of one graph by fused nodes."""

    def __init__(self, graph: Graph, pinned: set[str]):
        self.graph = graph
        self.by_name = {n.name: n for n in graph.nodes}
        self.users: dict[str, list[Node]] = {n.name: [] for n in graph.nodes}
        for node in graph.nodes:
            for ref in _refs(node):
                if ref.kind == "node":
                    self.users[ref.key].append(node)
        self.escaping = set(pinned)   # read by other graphs or the output
        if graph.output.kind == "node":
            self.escaping.add(graph.output.key)
        self.replaced: dict[str, Node] = {}   # last name -> fused node
        self.removed: set[str] = set()

    def producer(self, ref: Ref) -> Node | None:
        """The live node behind ``ref``, if it is a node of this graph."""
        if ref.kind != "node" or ref.key in self.removed:
            return None
        return self.replaced.get(ref.key, self.by_name.get(ref.key))

    def sole_user(self, node: Node) -> Node | None:
        """The one node reading ``node``'s value (once), if its value is
        needed nowhere else."""
        users = self.users[node.name]
        if node.name in self.escaping or len(users) != 1:
            return None
        user = users[0]
        if user.name in self.removed:
            return None
        uses = sum(ref == Ref("node", node.name) for ref in _refs(user))
        return self.replaced.get(user.name, user) if uses == 1 else None

    def replace(self, nodes: list[Node], fused: Node) -> None:
        for node in nodes[:-1]:
            self.removed.add(node.name)
        self.replaced[nodes[-1].name] = fused

    def result(self) -> Graph:
        nodes = [self.replaced.get(n.name, n) for n in self.graph.nodes
                 if n.name not in self.removed]
        g = self.graph
        return Graph(g.name, g.inputs, nodes, g.output, g.output_info,
                     g.free_vars)


def _refs(node: Node) -> list[Ref]:
    refs = [a.ref for a in node.args]
    return refs + [node.callee] if node.callee is not None else refs


def op_name(node: Node | None) -> str | None:
    return node.op.name if node is not None and node.op is not None else None


def activation(node: Node | None) -> int | None:
    """The ``ops._fast.ACT_*`` code of an activation node that convolution
    and GEMM epilogues can apply, or None."""
    name = op_name(node)
    if name == "GeluExt":
        return {"none": _fast.ACT_GELU_ERF,
                "tanh": _fast.ACT_GELU}.get(const(node, 1))
    return _fast.ACTIVATIONS.get(name)


def const(node: Node, index: int):
    """The constant value of argument ``index``, or ``Ellipsis`` if that
    argument is computed at run time."""
    if index >= len(node.args):
        return Ellipsis
    arg = node.args[index]
    return arg.ref.key if arg.ref.kind == "const" else Ellipsis


def tensor_abstract(editor: GraphEditor, ref: Ref):
    """The (shape, dtype) MindIR recorded for a tensor value, or None."""
    if ref.kind == "node":
        abstract = editor.by_name[ref.key].abstract
    elif ref.kind == "input":
        abstract = editor.graph.inputs[ref.key].abstract
    else:
        return None
    if abstract is None or abstract.kind != "tensor":
        return None
    return tuple(abstract.shape), abstract.dtype
