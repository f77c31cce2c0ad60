"""The MindIR name parser (refinfer/format/names.py) and Ref kinds."""
import copy
import pickle

import pytest

from refinfer.format import names
from refinfer.format.reader import MindIRFile, Primitive, RawNode
from refinfer.graph import Arg, Ref, RefKind


@pytest.mark.parametrize("op_type, target", [
    ("REF::MatMul:4", "MatMul:4"),
    ("REF::S_Prim_Add:7", "S_Prim_Add:7"),
    ("REF::main_graph_construct_12", "main_graph_construct_12"),
    ("REF::", ""),
    ("MatMul", None),                 # MindIR 1.x: the op itself
    ("ref::MatMul:4", None),
])
def test_applied_target(op_type, target):
    assert names.applied_target(op_type) == target


@pytest.mark.parametrize("op_type, op", [
    ("Add", "Add"), ("S_Prim_Add", "Add"), ("S_Prim_S_Prim_X", "S_Prim_X"),
    ("MakeTuple", "MakeTuple"),
])
def test_op_name(op_type, op):
    assert names.op_name(op_type) == op


def test_a_file_finds_the_primitive_a_node_applies():
    add = Primitive("S_Prim_Add:7", "S_Prim_Add", {}, True)
    mindir = MindIRFile("m.mindir", [], {add.name: add}, 1, "2.5")
    node = RawNode("main:n", "REF::S_Prim_Add:7", [], "Default/Add-op0", None)
    assert node.target == "S_Prim_Add:7"
    assert mindir.primitive_of(node) is add and add.op_name == "Add"
    for op_type in ("REF::main_graph", "S_Prim_Add:7"):
        other = RawNode("main:m", op_type, [], "", None)
        assert mindir.primitive_of(other) is None


def test_ref_kinds_are_enum_members_equal_to_their_names():
    ref = Ref("node", "main:n")
    assert ref.kind is RefKind.NODE and ref.kind == "node"
    assert ref == Ref(RefKind.NODE, "main:n")
    assert {ref: 1}[Ref(RefKind.NODE, "main:n")] == 1
    assert str(RefKind.CONST) == "const"
    with pytest.raises(ValueError):
        Ref("nod", "main:n")


def test_refs_and_args_are_immutable_values():
    ref, other = Ref("node", "main:n"), Ref("node", "main:m")
    arg = Arg(ref)
    assert arg == Arg(Ref(RefKind.NODE, "main:n"), None) and arg != Arg(other)
    assert hash(ref) == hash((RefKind.NODE, "main:n")) and ref != other
    assert ref != ("node", "main:n")        # a Ref equals Refs only
    assert repr(arg) == ("Arg(ref=Ref(kind=<RefKind.NODE: 'node'>, "
                         "key='main:n'), convert=None)")
    assert copy.deepcopy(arg) == arg and pickle.loads(pickle.dumps(ref)) == ref
    with pytest.raises(AttributeError, match="Ref is immutable: cannot set 'key'"):
        ref.key = "main:m"
    with pytest.raises(AttributeError, match="Arg is immutable"):
        del arg.convert
