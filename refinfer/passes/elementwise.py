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
tensors may enter the group. A short chain of plain arithmetic on a small
tensor runs as NumPy's loops instead (:func:`program.run_ufuncs`, where
SHORT_CHAIN_ROWS and SHORT_CHAIN_ELEMENTS say why).
"""
from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from ..graph import Node, Ref, RefKind
from ..ops._kernels.elementwise import plain, program_for
from ..ops._kernels.program import (MAX_OPERANDS, SHORT_CHAIN_ELEMENTS,
                                    ProgramBuilder, run_ufuncs,
                                    short_arithmetic)
from .fused import GraphEditor, fused_node

FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_NODE, _CONST = RefKind.NODE, RefKind.CONST     # (module names: found faster)
# Nodes in one group at most: more than any model's chain of elementwise ops,
# and it bounds the program builder's tables (a program of a million rows
# took 300 MB to write); a longer chain becomes several programs.
MAX_GROUP = 4096


def fuse_elementwise(editor: GraphEditor) -> None:
    if not any(editor.reader.values()):
        return      # no value is read by one node alone: none joins a group
    for group, dtype in _groups(editor, editor.graph.nodes):
        _fuse(editor, group, dtype)


def _groups(editor: GraphEditor, nodes: list[Node]) -> list[tuple[list[Node], Any]]:
    """The groups of two or more of ``nodes`` (in graph order), each in
    graph order, with its dtype. One walk backwards, users before their
    producers: a node with a float dtype (:func:`_dtype`) joins the group
    of the one node reading its value (once, as one of its values) when
    that group has its dtype and fewer than ``MAX_GROUP`` nodes; else it
    starts a group of its own."""
    # member -> (its group's first node, the dtype), kept only for the
    # members that a producer could join (where nothing fuses: none)
    joinable: dict[str, tuple[str, Any]] = {}
    members: dict[str, list[Node]] = {}     # that node -> the group, backwards
    for node in reversed(nodes):
        dtype = _dtype(node)
        if dtype is None:
            continue
        user = editor.sole_user(node)
        entry = None if user is None else joinable.get(user.name)
        if entry is not None and entry[1] == dtype \
                and len(members.get(entry[0], ())) < MAX_GROUP \
                and _reads_as_value(user, node.name):
            root = entry[0]
            members.setdefault(root, [user] if root == user.name else []
                               ).append(node)
        else:
            root = node.name
        if _could_gather(editor, node):
            joinable[node.name] = root, dtype
    return [(group[::-1], joinable[root][1]) for root, group in members.items()]


def _could_gather(editor: GraphEditor, node: Node) -> bool:
    """Whether a value of ``node`` comes from a node read by it alone: a
    producer that could join its group. (Asked of every fusable node: a
    plain loop.)"""
    reader = editor.reader
    for arg in node.args[:node.op.recipe.values]:
        ref = arg.ref
        if ref.kind is _NODE and reader.get(ref.key) is node:
            return True
    return False


def _fuse(editor: GraphEditor, group: list[Node], dtype) -> None:
    """Replace ``group`` (of ``dtype``) by one fused node; if too many
    tensors enter it, the groups found among its nodes without its last one
    instead."""
    chain = Chain(group, dtype)
    if len(chain.inputs) <= MAX_OPERANDS:
        editor.replace(group, fused_node(group, chain, chain.inputs, ()))
        return
    for smaller, its_dtype in _groups(editor, group[:-1]):
        _fuse(editor, smaller, its_dtype)


def _reads_as_value(user: Node, name: str) -> bool:
    """Whether ``user`` reads node ``name`` as one of its recipe's values
    (not as a parameter)."""
    for arg in user.args[:user.op.recipe.values]:
        ref = arg.ref
        if ref.kind is _NODE and ref.key == name:
            return True
    return False


def _dtype(node: Node):
    """The float dtype of a node that can be in a group: a fusable recipe,
    constant parameters the recipe takes, values without run-time
    converters, at least one of them computed at run time; else None.
    (Asked of every node of a long chain: plain loops, no generator per
    question.)"""
    recipe = None if node.op is None else node.op.recipe    # (fused: None)
    if recipe is None or not recipe.fusable:
        return None
    abstract = node.abstract            # the dtype MindIR recorded
    dtype = None if abstract is None or abstract.kind != "tensor" \
        else abstract.dtype
    # (np.dtype == None holds for float64: test None first)
    if dtype is None or dtype not in FLOATS:
        return None
    args, count = node.args, recipe.values
    pattern, computed = [], False      # (see _takes)
    for arg in args[:count]:
        if arg.convert is not None:
            return None
        ref = arg.ref
        if ref.kind is not _CONST:
            computed = True
        pattern.append(None if ref.kind is _CONST and ref.key is None
                       else "tensor")
    params = args[count:]
    for arg in params:
        if arg.ref.kind is not _CONST:
            return None
    return dtype if computed and _takes(recipe, tuple(pattern), params, dtype) \
        else None


def _takes(recipe, pattern: tuple, params, dtype) -> bool:
    """Whether the recipe writes a program for values of this pattern
    ("tensor" for a computed or constant value, None for a None) and these
    parameters."""
    try:
        return program_for(recipe, dtype, pattern, plain(
            a.ref.key for a in params) if params else ()) is not None
    except (TypeError, ValueError):     # an unhashable or odd parameter
        return False


class Chain:
    """The group's register program; calling it runs the program on the
    group's tensor inputs (None when they are not all of its dtype)."""

    def __init__(self, group: list[Node], dtype):
        self.dtype = dtype
        self.inputs: list[Ref] = []
        builder = ProgramBuilder(self.dtype)
        results = {}
        for node in group:
            recipe, args = node.op.recipe, node.args
            handles = [self._operand(a.ref, builder, results)
                       for a in args[:recipe.values]]
            params = args[recipe.values:]
            results[node.name] = recipe.emit(
                builder, *handles,
                *(plain(a.ref.key for a in params) if params else ()))
        self.program = builder.build(results[group[-1].name])
        self.short = short_arithmetic(self.program)

    def _operand(self, ref: Ref, builder, results: dict):
        if ref.kind is _NODE and ref.key in results:
            return results[ref.key]
        if ref.kind is _CONST and ref.key is None:
            return None
        if ref.kind is _CONST and _is_scalar(ref.key, self.dtype):
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
        if self.short and math.prod(np.broadcast_shapes(
                *(v.shape for v in values))) <= SHORT_CHAIN_ELEMENTS:
            return run_ufuncs(self.program, values)
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
