"""Fuse groups of float elementwise ops into one program run.

A group is a node plus, recursively, the elementwise producers of its
operands whose value nothing else reads, all recorded by MindIR with the
root's float dtype. It becomes one node whose kernel runs the group as a
register program (:func:`ops._fast.run`) chunk by chunk: one pass over
memory instead of one per op, and one dispatch instead of many. Scalar
constants become constant registers; at most ``MAX_OPERANDS`` tensors may
enter the group.
"""
from __future__ import annotations

import numbers

import numpy as np

from ..graph import Node, Ref
from ..ops import _fast
from .fused import GraphEditor, fused_node, op_name, tensor_abstract

OPCODES = {"Add": _fast.OP_ADD, "Sub": _fast.OP_SUB, "Mul": _fast.OP_MUL,
           "Muls": _fast.OP_MUL, "RealDiv": _fast.OP_DIV, "Div": _fast.OP_DIV,
           "Maximum": _fast.OP_MAX, "Minimum": _fast.OP_MIN,
           "Pow": _fast.OP_POW, "Neg": _fast.OP_NEG, "Abs": _fast.OP_ABS,
           "Exp": _fast.OP_EXP, "Log": _fast.OP_LOG, "Sqrt": _fast.OP_SQRT,
           "Square": _fast.OP_SQUARE, "Erf": _fast.OP_ERF,
           "ReLU": _fast.OP_RELU, "ReLU6": _fast.OP_RELU6,
           "HSwish": _fast.OP_HSWISH, "Sigmoid": _fast.OP_SIGMOID,
           "Tanh": _fast.OP_TANH, "GeLU": _fast.OP_GELU,
           "FastGeLU": _fast.OP_FAST_GELU}
FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def fuse_elementwise(editor: GraphEditor) -> None:
    for node in reversed(editor.graph.nodes):
        if editor.producer(Ref("node", node.name)) is node \
                and _dtype(editor, node) is not None:
            group = _grow(editor, node)
            if len(group) > 1:
                chain = Chain(editor, group)
                if len(chain.inputs) <= _fast.MAX_OPERANDS:
                    editor.replace(group, fused_node(
                        group, chain, chain.inputs, ()))


def _dtype(editor: GraphEditor, node: Node):
    """The float dtype of an elementwise node with two or one operands,
    at least one of them computed at run time; None otherwise."""
    if op_name(node) not in OPCODES or node.op.family == "fused":
        return None
    arity = 1 if OPCODES[op_name(node)] >= _fast.FIRST_UNARY else 2
    if len(node.args) != arity or all(a.ref.kind == "const" for a in node.args):
        return None
    recorded = tensor_abstract(editor, Ref("node", node.name))
    return recorded[1] if recorded and recorded[1] in FLOATS else None


def _grow(editor: GraphEditor, root: Node) -> list[Node]:
    """The root and the absorbable producers behind it, in graph order."""
    dtype = _dtype(editor, root)
    members, stack = {root.name: root}, [root]
    while stack:
        node = stack.pop()
        for arg in node.args:
            producer = editor.producer(arg.ref)
            if producer is None or producer.name in members:
                continue
            found = _dtype(editor, producer)   # (np.dtype == None holds for
            if found is None or found != dtype:  # float64: test None first)
                continue
            if editor.sole_user(producer) is node:
                members[producer.name] = producer
                stack.append(producer)
    order = {n.name: i for i, n in enumerate(editor.graph.nodes)}
    return sorted(members.values(), key=lambda n: order[n.name])


class Chain:
    """The group's register program; calling it runs the program on the
    group's tensor inputs (None when they are not all of its dtype)."""

    def __init__(self, editor: GraphEditor, group: list[Node]):
        self.dtype = _dtype(editor, group[-1])
        names = {n.name for n in group}
        self.inputs: list[Ref] = []
        constants: list[float] = []
        operands = []   # per node: its operands as ("in", i) / ("const", i)
        for node in group:
            operands.append([self._operand(a, names, constants)
                             for a in node.args])
        n_in, n_const = len(self.inputs), len(constants)
        self.consts = np.array(constants, self.dtype)
        self.program, self.n_regs = _allocate(group, operands, n_in, n_const)
        self.out_reg = int(self.program[-1, 1])

    def _operand(self, arg, names: set, constants: list):
        ref = arg.ref
        if ref.kind == "node" and ref.key in names:
            return ("node", ref.key)
        if ref.kind == "const" and _is_scalar(ref.key, self.dtype):
            constants.append(float(np.asarray(ref.key).reshape(-1)[0]))
            return ("const", len(constants) - 1)
        for index, known in enumerate(self.inputs):
            if _same(known, ref):
                return ("in", index)
        self.inputs.append(ref)
        return ("in", len(self.inputs) - 1)

    def __call__(self, *values):
        if any(not isinstance(v, np.ndarray) or v.dtype != self.dtype
               for v in values):
            return None
        return _fast.run(self.program, self.n_regs, self.out_reg, values,
                         self.consts)


def _same(a: Ref, b: Ref) -> bool:
    """Refs to the same value (constants by identity: arrays do not
    compare to one truth value)."""
    if a.kind == "const" or b.kind == "const":
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


def _allocate(group, operands, n_in: int, n_const: int):
    """Program rows (opcode, dst, a, b) with temporaries reused once their
    last reader has run; returns (program, register count)."""
    last_use = {}
    for index, ops in enumerate(operands):
        for kind, key in ops:
            if kind == "node":
                last_use[key] = index
    base = n_in + n_const
    free, count, where, rows = [], base, {}, []
    for index, (node, ops) in enumerate(zip(group, operands)):
        regs = [_register(kind, key, n_in, where) for kind, key in ops]
        if free:        # taken before this row's operands are released:
            dst = free.pop()    # a row never writes its own operand
        else:
            dst, count = count, count + 1
        for kind, key in ops:
            if kind == "node" and last_use[key] == index:
                free.append(where[key])
        where[node.name] = dst
        regs += [regs[0]] * (2 - len(regs))
        rows.append((OPCODES[op_name(node)], dst, regs[0], regs[1]))
    return np.array(rows, np.int64), count


def _register(kind: str, key, n_in: int, where: dict) -> int:
    if kind == "in":
        return key
    if kind == "const":
        return n_in + key
    return where[key]
