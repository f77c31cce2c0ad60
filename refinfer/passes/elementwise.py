"""Fuse groups of float elementwise ops into one program run.

A group is a node plus, recursively, the elementwise producers of its
values whose result nothing else reads, all recorded by MindIR with the
root's float dtype. An op is elementwise here when its definition has a
recipe (``OpDef.recipe``, see ops/_kernels/elementwise.py: arithmetic, math
functions, activations) and its parameters (alpha, lambd, eps, ...) are
constants. The group becomes one node whose kernel runs the recipes as one
register program (:func:`ops._kernels.program.run`) chunk by chunk: one
pass over memory instead of one per op, and one dispatch instead of many.
Scalar constants become constant registers; at most ``MAX_OPERANDS``
tensors may enter the group.
"""
from __future__ import annotations

import numbers
from typing import Callable

import numpy as np

from ..graph import Node, Ref, RefKind
from ..ops._kernels.elementwise import plain, program_for
from ..ops._kernels.program import MAX_OPERANDS, ProgramBuilder
from .fused import GraphEditor, fused_node, tensor_abstract

FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def fuse_elementwise(editor: GraphEditor) -> None:
    positions: dict[str, int] = {}
    dtypes: dict[int, object] = {}      # id(node) -> _dtype, asked up to 4 times

    def position(node: Node) -> int:
        """The node's index in the graph: the map is made once per graph
        (a graph of N nodes has up to N roots), at the first group found."""
        if not positions:
            positions.update((n.name, k) for k, n in enumerate(editor.graph.nodes))
        return positions[node.name]

    def dtype_of(node: Node):
        if id(node) not in dtypes:      # (nodes live as long as the editor)
            dtypes[id(node)] = _dtype(editor, node)
        return dtypes[id(node)]

    for node in reversed(editor.graph.nodes):
        if editor.is_live(node) and _fusable(node):
            group = _grow(editor, node, position, dtype_of)
            if len(group) > 1:
                chain = Chain(editor, group)
                if len(chain.inputs) <= MAX_OPERANDS:
                    editor.replace(group, fused_node(
                        group, chain, chain.inputs, ()))


def _split(node: Node) -> tuple[list, list]:
    """The node's (value arguments, parameter arguments)."""
    count = node.op.recipe.values
    return node.args[:count], node.args[count:]


def _dtype(editor: GraphEditor, node: Node):
    """The float dtype of a node that can join a group: a fusable recipe,
    constant parameters the recipe takes, values without run-time
    converters, at least one of them computed at run time; else None."""
    if not _fusable(node):
        return None
    values, params = _split(node)
    if any(a.ref.kind is not RefKind.CONST for a in params) \
            or any(a.convert is not None for a in values) \
            or all(a.ref.kind is RefKind.CONST for a in values):
        return None
    recorded = tensor_abstract(editor, Ref(RefKind.NODE, node.name))
    dtype = recorded[1] if recorded and recorded[1] in FLOATS else None
    return dtype if dtype is not None and _takes(node, dtype) else None


def _fusable(node: Node) -> bool:
    """Whether the node's op has a recipe the pass may fuse."""
    recipe = None if node.op is None else node.op.recipe    # (fused: None)
    return recipe is not None and recipe.fusable


def _takes(node: Node, dtype) -> bool:
    """Whether the node's recipe writes a program for its parameters."""
    values, params = _split(node)
    pattern = tuple(None if a.ref.kind is RefKind.CONST and a.ref.key is None
                    else "tensor" for a in values)
    try:
        return program_for(node.op.recipe, dtype, pattern,
                           plain(a.ref.key for a in params)) is not None
    except (TypeError, ValueError):     # an unhashable or odd parameter
        return False


def _grow(editor: GraphEditor, root: Node, position: Callable,
          dtype_of: Callable) -> list[Node]:
    """The root and the absorbable producers behind it, in graph order
    (``position``: a node's index in the graph; ``dtype_of``:
    :func:`_dtype`, asked only once a producer could join: most nodes have
    none)."""
    members, stack = {root.name: root}, [root]
    while stack:
        node = stack.pop()
        for arg in _split(node)[0]:
            producer = editor.producer(arg.ref)
            if producer is None or producer.name in members \
                    or editor.sole_user(producer) is not node:
                continue
            dtype, found = dtype_of(root), dtype_of(producer)
            # (np.dtype == None holds for float64: test None first)
            if dtype is not None and found is not None and found == dtype:
                members[producer.name] = producer
                stack.append(producer)
    return sorted(members.values(), key=position) if len(members) > 1 \
        else [root]


class Chain:
    """The group's register program; calling it runs the program on the
    group's tensor inputs (None when they are not all of its dtype)."""

    def __init__(self, editor: GraphEditor, group: list[Node]):
        self.dtype = _dtype(editor, group[-1])
        self.inputs: list[Ref] = []
        builder = ProgramBuilder(self.dtype)
        results = {}
        for node in group:
            values, params = _split(node)
            handles = [self._operand(a.ref, builder, results) for a in values]
            results[node.name] = node.op.recipe.emit(
                builder, *handles, *plain(a.ref.key for a in params))
        self.program = builder.build(results[group[-1].name])

    def _operand(self, ref: Ref, builder, results: dict):
        if ref.kind is RefKind.NODE and ref.key in results:
            return results[ref.key]
        if ref.kind is RefKind.CONST and ref.key is None:
            return None
        if ref.kind is RefKind.CONST and _is_scalar(ref.key, self.dtype):
            return builder.const(np.asarray(ref.key).reshape(-1)[0])
        for index, known in enumerate(self.inputs):
            if _same(known, ref):
                return builder.input(index)
        self.inputs.append(ref)
        return builder.input(len(self.inputs) - 1)

    def __call__(self, *values):
        if any(not isinstance(v, np.ndarray) or v.dtype != self.dtype
               for v in values):
            return None
        return self.program(values)


def _same(a: Ref, b: Ref) -> bool:
    """Refs to the same value (constants by identity: arrays do not
    compare to one truth value)."""
    if a.kind is RefKind.CONST or b.kind is RefKind.CONST:
        return a.kind == b.kind and a.key is b.key
    return a == b


def _is_scalar(value, dtype) -> bool:
    """A Python number (it takes the tensor's dtype) or a 0-d constant of
    the group's dtype."""
    if isinstance(value, bool):
        return False
    if isinstance(value, numbers.Real):
        return True
    return isinstance(value, np.ndarray) and value.ndim == 0 \
        and value.dtype == dtype
