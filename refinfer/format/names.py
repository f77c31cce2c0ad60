"""How MindIR 2.x names what a node applies: the one parser of those names.

A node's ``op_type`` is ``REF::<target>``, the target being a primitive's
unique id (``MatMul:4``), a graph's name, or a node whose value is a closure;
MindIR 1.x (legacy) files put the op itself there (``MatMul``). A primitive's
own ``op_type`` is the op's name, which some exports prefix with ``S_Prim_``.
"""
from __future__ import annotations

import functools

REF_PREFIX = "REF::"
PRIMITIVE_PREFIX = "S_Prim_"


@functools.lru_cache(maxsize=4096)
def applied_target(op_type: str) -> str | None:
    """What a node with ``op_type`` applies (``"REF::MatMul:4"`` ->
    ``"MatMul:4"``), or None for the legacy encoding (no ``REF::``). One
    string per distinct ``op_type`` (cached): the nodes of a primitive
    share it, and a graph may have millions."""
    if not op_type.startswith(REF_PREFIX):
        return None
    return op_type[len(REF_PREFIX):]


def op_name(primitive_op_type: str) -> str:
    """The op a primitive's ``op_type`` names, as the registry knows it
    (``"S_Prim_Add"`` -> ``"Add"``)."""
    return primitive_op_type.removeprefix(PRIMITIVE_PREFIX)
