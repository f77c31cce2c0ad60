"""Fused nodes and the small graph editor the passes share.

A fused node replaces a group of nodes (a convolution and its BatchNorm,
bias and activation; a chain of elementwise ops) by one node that carries
the group's last name, so every consumer still finds its value. Its op is
made like a registered op's: the fast function is its Numba kernel and the
group's nodes, run one by one with their reference kernels, are its
reference, so a fast function that declines its inputs (returns None: an
unexpected dtype or shape at run time) falls back as every kernel does
(``registry.OpDef.kernel``). Fusion therefore never changes which inputs a
model accepts.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from ..graph import Arg, Graph, Node, Ref, RefKind, all_args
from ..ops._kernels import program as _fast
from ..registry import OpDef
from ..step import kernel_step

# The backend whose kernels the passes fuse (the runners of ops/_kernels).
FUSED_BACKEND = "numba"


class GroupReference:
    """A fused op's reference: its group's nodes run one by one with their
    reference kernels, as plan steps over slots of their own. Takes the
    fused node's arguments (its inputs, then the fast function's constants,
    which it does not need: each node has its own). The steps are made at
    the first call: most fused nodes never fall back, and a group can hold
    a whole graph's nodes."""

    def __init__(self, nodes: list[Node], inputs: list[Ref]):
        self.nodes, self.inputs = nodes, inputs
        self.n_inputs = len(inputs)
        self._steps: list | None = None

    @property
    def steps(self) -> list:
        if self._steps is None:     # (two threads may both make them: alike)
            self._steps = self._make_steps()
        return self._steps

    def _make_steps(self) -> list:
        slot_of = {ref: k for k, ref in enumerate(self.inputs)
                   if ref.kind is not RefKind.CONST}
        steps = []
        for node in self.nodes:
            out = self.n_inputs + len(steps)
            steps.append(kernel_step(node, node.op.reference,
                                     slot_of.__getitem__, out))
            slot_of[Ref(RefKind.NODE, node.name)] = out
        return steps

    def __call__(self, *args) -> Any:
        steps = self.steps
        slots = [*args[:self.n_inputs], *[None] * len(steps)]
        for step in steps:
            slots[step.out] = step.run(slots)
        return slots[-1]


def fused_node(nodes: list[Node], fast: Callable, inputs: list[Ref],
               constants: tuple = ()) -> Node:
    """One node computing ``nodes`` (in order; the last one's value) as
    ``fast(*inputs, *constants)``, or their reference kernels where
    ``fast`` returns None. The constants are the node's constant arguments,
    so the plan holds them as it holds any op's."""
    last = nodes[-1]
    name = "+".join(n.op.name for n in nodes)
    op = OpDef(name, GroupReference(nodes, inputs), "fused", (), (),
               kernels={FUSED_BACKEND: fast})
    args = [Arg(ref) for ref in inputs] + \
        [Arg(Ref(RefKind.CONST, c)) for c in constants]
    return Node(last.name, last.scope, op, args, None, last.abstract)


class GraphEditor:
    """Replace groups of nodes of one graph by fused nodes. Its tables (an
    entry or two per node) are made at the first question: a pass that
    finds nothing to fuse (no convolution in the graph) never asks."""

    def __init__(self, graph: Graph, pinned: set[str]):
        self.graph = graph
        self.escaping = set(pinned)   # read by other graphs or the output
        if graph.output.kind is RefKind.NODE:
            self.escaping.add(graph.output.key)
        self.replaced: dict[str, Node] = {}   # last name -> fused node
        self.removed: set[str] = set()

    @functools.cached_property
    def by_name(self) -> dict[str, Node]:
        return {n.name: n for n in self.graph.nodes}

    @functools.cached_property
    def reader(self) -> dict[str, Node | None]:
        """Node name -> the node reading its value, None when read more
        than once (by one node or several); absent when nothing reads it."""
        reader: dict[str, Node | None] = {}
        node_kind = RefKind.NODE        # (plain loops and local names: a
        for node in self.graph.nodes:   # walk of every argument of a long graph)
            for arg in node.args if node.callee is None else all_args(node):
                ref = arg.ref
                if ref.kind is node_kind:
                    key = ref.key
                    reader[key] = None if key in reader else node
        return reader

    def producer(self, ref: Ref) -> Node | None:
        """The live node behind ``ref``, if it is a node of this graph."""
        if ref.kind is not RefKind.NODE or ref.key in self.removed:
            return None
        return self.replaced.get(ref.key, self.by_name.get(ref.key))

    def is_live(self, node: Node) -> bool:
        """Whether ``node`` is still in the graph, neither removed nor
        replaced by a fused node."""
        return node.name not in self.removed and node.name not in self.replaced

    def sole_user(self, node: Node) -> Node | None:
        """The one node reading ``node``'s value (once), if its value is
        needed nowhere else."""
        user = self.reader.get(node.name)
        if node.name in self.escaping or user is None \
                or user.name in self.removed:
            return None
        return self.replaced.get(user.name, user)

    def fuse_each(self, starts: frozenset,
                  fuse: Callable[["GraphEditor", Node], None]) -> None:
        """fuse(self, node) for each node applying one of the ``starts``
        ops that is still live (not taken into an earlier group)."""
        for node in self.graph.nodes:
            if op_name(node) in starts \
                    and self.producer(Ref(RefKind.NODE, node.name)) is node:
                fuse(self, node)

    def replace(self, nodes: list[Node], fused: Node) -> None:
        for node in nodes[:-1]:
            self.removed.add(node.name)
        self.replaced[nodes[-1].name] = fused

    def result(self) -> Graph:
        """The graph with the fused nodes (the graph itself when nothing
        was fused)."""
        g = self.graph
        if not self.replaced:
            return g
        nodes = [self.replaced.get(n.name, n) for n in g.nodes
                 if n.name not in self.removed]
        return Graph(g.name, g.inputs, nodes, g.output, g.output_info,
                     g.free_vars)


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
    return arg.ref.key if arg.ref.kind is RefKind.CONST else Ellipsis


def tensor_abstract(editor: GraphEditor, ref: Ref):
    """The (shape, dtype) MindIR recorded for a tensor value, or None."""
    if ref.kind is RefKind.NODE:
        abstract = editor.by_name[ref.key].abstract
    elif ref.kind is RefKind.INPUT:
        abstract = editor.graph.inputs[ref.key].abstract
    else:
        return None
    if abstract is None or abstract.kind != "tensor":
        return None
    return tuple(abstract.shape), abstract.dtype
