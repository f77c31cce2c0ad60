"""The plan API: a program's constants by place (what weight sharing swaps)
and kernel steps (refinfer/step.py), the one place that assembles a node's
arguments and names a failing node."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.errors import NodeError
from refinfer.format.values import Abstract
from refinfer.graph import Arg, Node, Ref, RefKind
from refinfer.passes.fused import FUSED_BACKEND, fused_node
from refinfer.runtime import LoadedModel
from refinfer.plan import step_count
from refinfer.step import Hooks, kernel_step

from golden_cases import golden_case

F32 = np.dtype(np.float32)


def weight_place(model: LoadedModel, name: str) -> str:
    weight = model.parameters()[name]
    return next(place for place, value in model.program.constants()
                if value is weight)


def test_constants_are_named_by_graph_step_and_argument():
    model = LoadedModel(golden_case("mlp").model_path)
    places = dict(model.program.constants())
    main = model.program.main
    assert weight_place(model, "fc1.weight") == f"{main}/0/args/1"
    assert all(place.startswith(f"{main}/") for place in places)
    assert places[f"{main}/1/args/2"] == "NCHW"       # BiasAdd's format


def test_a_replaced_constant_is_what_the_next_run_reads():
    case = golden_case("mlp")
    model = LoadedModel(case.model_path)
    doubled = model.parameters()["fc2.weight"] * np.float32(2)
    place = weight_place(model, "fc2.weight")
    model.program.replace_constants({place: doubled})
    assert dict(model.program.constants())[place] is doubled
    expected = LoadedModel(case.model_path)
    expected.replace_parameters({"fc2.weight": doubled})
    np.testing.assert_array_equal(model.run(case.inputs())[0],
                                  expected.run(case.inputs())[0])


def test_an_unknown_place_replaces_nothing():
    model = LoadedModel(golden_case("mlp").model_path)
    before = list(model.program.constants())
    place = weight_place(model, "fc1.weight")
    with pytest.raises(KeyError, match="no constant at .*/0/args/0"):
        model.program.replace_constants({
            place: np.zeros((8, 4), F32),
            f"{model.program.main}/0/args/0": None})   # x: not a constant
    assert [v for _, v in model.program.constants()] == [v for _, v in before]


@pytest.mark.parametrize("name", ["ctrl_while", "ctrl_if"])
def test_every_place_of_a_control_flow_model_can_be_replaced(name):
    case = golden_case(name)
    model = LoadedModel(case.model_path)
    constants = dict(model.program.constants())
    assert any("/slots/" in place for place in constants)
    model.program.replace_constants(constants)
    for got, want in zip(model.run(case.inputs()), case.outputs()):
        np.testing.assert_allclose(got, want, **case.tolerance)


def node(name: str, op: str, *refs: Ref) -> Node:
    return Node(name, f"Default/{name}", registry.get_op(op),
                [Arg(r) for r in refs], None,
                Abstract("tensor", (4,), F32))


def test_a_step_reads_slots_through_converters_and_calls_hooks():
    add = node("n0", "Add", Ref(RefKind.INPUT, 0), Ref(RefKind.CONST, 1.0))
    add.args[0] = Arg(add.args[0].ref, convert=lambda v: v * 10)
    step = kernel_step(add, add.op.reference, lambda ref: ref.key, out=1)
    seen = []
    hooks = Hooks(lambda n, args: seen.append(("before", n.name, len(args))),
                  lambda n, args, result: seen.append(("after", result[0])))
    result = step.run([np.ones(4, F32), None], hooks)
    np.testing.assert_array_equal(result, np.full(4, 11, F32))
    assert seen == [("before", "n0", 2), ("after", 11.0)]


def test_a_failing_kernel_names_its_node_even_inside_a_fused_group():
    x = Ref(RefKind.INPUT, 0)
    mul = node("n0", "Mul", x, Ref(RefKind.CONST, 3.0))
    product = node("n1", "MatMul", Ref(RefKind.NODE, "n0"), x)  # [2,3]@[2,3]
    fused = fused_node([mul, product], lambda *args: None, [x])
    step = kernel_step(fused, fused.op.kernel(FUSED_BACKEND),
                       lambda ref: ref.key, out=1)
    with pytest.raises(NodeError) as info:
        step.run([np.ones((2, 3), F32), None])
    assert info.value.node == "Default/n1" and info.value.op == "MatMul"
    assert "float32[2, 3]" in str(info.value)


@pytest.mark.parametrize("name, expected", [("mlp", 5), ("ctrl_while", None),
                                            ("ctrl_if", None)])
def test_step_count_is_the_main_graph_steps_unless_graphs_call(name, expected):
    program = LoadedModel(golden_case(name).model_path).program
    assert step_count(program) == expected
