"""Scaled dot-product attention as one step
(:func:`ops._kernels.attention.attention`).

Pattern (each value read by the next node alone, bracketed nodes
optional)::

    [Transpose(q, dq)]  [Transpose(k, dk)]
    -> BatchMatMul(., ., False, transpose_b)             the scores
    -> [Muls(., c) | Mul(., c)]                           c a float scalar
    -> [Add(., mask)]
    -> Softmax(., axis)
    -> BatchMatMul(., [Transpose(v, dv)], False, False)  the context
    -> [Transpose(., do)]

where each Transpose keeps its input's last axis among the last two (the
kernel reads it as a view: passes/gemm.py's rule), the last one keeps the
last axis last, and ``mask`` is any tensor (a causal mask, a padding mask,
a bias). MindSpore's BERT and GPT-2 export their attention so (BERT
without the mask). It runs before gemm's ``fuse_transposed_operands``,
which would take the Transposes into the products alone.
"""
from __future__ import annotations

import numpy as np

from ..graph import Node, Ref, RefKind
from ..ops._kernels.attention import attention
from .fused import GraphEditor, const, fused_node, op_name
from .gemm import view_dims

# the ops a group starts from
STARTS = frozenset({"Softmax"})
SCALES = frozenset({"Muls", "Mul"})
PRODUCT = frozenset({"BatchMatMul"})


def fuse_attention(editor: GraphEditor) -> None:
    editor.fuse_each(STARTS, _fuse)


def _fuse(editor: GraphEditor, softmax: Node) -> None:
    scores, scale, mask = _scores(editor, softmax)
    context = editor.sole_user(softmax)
    if scores is None or op_name(context) != "BatchMatMul" \
            or _sole_producer(editor, context, 0) is not softmax \
            or (const(context, 2), const(context, 3)) != (False, False):
        return
    group = [*scores, softmax]
    q, q_dims = _operand(editor, scores[0], 0, group)
    k, k_dims = _operand(editor, scores[0], 1, group)
    v, v_dims = _operand(editor, context, 1, group)
    group.append(context)
    joined = editor.sole_user(context)
    out_dims = view_dims(joined)
    if out_dims is not None and out_dims[-1] == len(out_dims) - 1:
        group.append(joined)
    else:
        out_dims = None
    inputs = [q, k, v, mask or Ref(RefKind.CONST, None)]
    editor.replace(group, fused_node(group, attention, inputs, (
        q_dims, k_dims, v_dims, out_dims, const(scores[0], 3), scale,
        const(softmax, 1))))


def _scores(editor: GraphEditor, softmax: Node) -> tuple:
    """(the nodes from the scores' product to the Softmax's input, first
    to last; the scale; the mask's Ref or None), or (None, None, None)
    where the Softmax's input is not made so."""
    nodes, scale, mask = [], 1.0, None
    node = _sole_producer(editor, softmax, 0)
    if op_name(node) == "Add":
        nodes.append(node)
        node, mask = _other(editor, node, SCALES | PRODUCT)
    if op_name(node) in SCALES:
        nodes.append(node)
        node, scale = _other(editor, node, PRODUCT)
        scale = _scalar(scale)
    if op_name(node) != "BatchMatMul" or scale is None \
            or const(node, 2) is not False or const(node, 3) not in (False, True):
        return None, None, None
    nodes.append(node)
    return nodes[::-1], scale, mask


def _other(editor: GraphEditor, node: Node, ops: frozenset) -> tuple:
    """(the producer, applying one of ``ops``, of an operand of binary
    ``node`` that only ``node`` reads; the other operand: a Ref, or a
    constant for Muls and Mul), or (None, None)."""
    for own, other in ((0, 1), (1, 0)):
        producer = _sole_producer(editor, node, own)
        if op_name(producer) in ops:
            ref = node.args[other].ref
            value = ref.key if ref.kind is RefKind.CONST \
                and op_name(node) in SCALES else ref
            return producer, value
    return None, None


def _scalar(value):
    """A float scalar constant's value (a 0-d or one-element float array,
    or a Python float), else None."""
    if isinstance(value, float):
        return value
    if isinstance(value, (np.ndarray, np.generic)) and value.size == 1 \
            and value.dtype.kind == "f":
        return float(value.reshape(-1)[0])
    return None


def _sole_producer(editor: GraphEditor, node: Node, index: int):
    """The node making ``node``'s argument ``index``, where only ``node``
    reads its value; else None."""
    producer = editor.producer(node.args[index].ref) \
        if index < len(node.args) else None
    return producer if producer is not None \
        and editor.sole_user(producer) is node else None


def _operand(editor: GraphEditor, product: Node, index: int,
             group: list) -> tuple:
    """(the Ref the kernel reads for ``product``'s operand ``index``, the
    dims of the Transpose it takes in, added to ``group``, or None)."""
    source = _sole_producer(editor, product, index)
    dims = view_dims(source) if source is not None else None
    if dims is None:
        return product.args[index].ref, None
    group.insert(0, source)
    return source.args[0].ref, dims
