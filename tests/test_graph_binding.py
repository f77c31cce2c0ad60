"""The graph builder's binding found once per primitive (issue 17, builder
scale: refinfer/graph.py's ``_Application``) binds a node's inputs as the
op's signature does (``_bind``), for every registered op."""
from refinfer import registry
from refinfer.format.reader import Primitive
from refinfer.graph import GRAPH_ARGUMENT_OPS, Arg, Ref, RefKind, _Application, _bind


def test_input_k_to_parameter_k_is_the_signatures_binding_for_every_op():
    positional = 0
    for op in registry.list_ops():
        prim = Primitive(f"S_Prim_{op.name}:3", f"S_Prim_{op.name}", {}, True)
        use = _Application.of(prim)
        assert (use.op, use.op_name) == (op, op.name)
        assert use.keeps_monads == (op.name in GRAPH_ARGUMENT_OPS)
        if use.converters is None:      # *args: bound by the signature
            assert any(p.variadic for p in op.params), op.name
            assert not use.plain, op.name
            continue
        assert use.plain == all(c is None for c in use.converters), op.name
        refs = [Ref(RefKind.NODE, f"x{k}") for k in range(len(op.params))]
        expected = _bind(op, prim, refs)
        assert [Arg(ref, convert) for ref, convert
                in zip(refs, use.converters)] == expected, op.name
        positional += 1
    assert positional >= 550        # (595 of 602 ops when written)


def test_a_primitive_without_an_op_has_none():
    use = _Application.of(Primitive("NoSuchOp:1", "NoSuchOp", {}, True))
    assert (use.op, use.op_name, use.converters) == (None, "NoSuchOp", None)
    assert not use.plain
