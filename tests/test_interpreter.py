"""The graph, plan and executor layers on real MindSpore exports."""
import gc
import importlib.util
import os
import sys
import weakref

import numpy as np
import pytest

from refinfer import executor, registry, runtime
from refinfer import plan as cpu_plan
from refinfer.errors import GraphError, NodeError
from refinfer.executor import Hooks
from refinfer.format import schema
from refinfer.format.reader import (MindIRFile, Primitive, RawGraph, RawNode,
                                    ValueInfo, read_mindir)
from refinfer.format.values import MONAD, Abstract
from refinfer.graph import RefKind, build_model
from refinfer.runtime import LoadedModel

from golden_cases import assert_close, golden_case


def _rewrite(case, tmp_path, edit):
    """A copy of ``case``'s model file with ``edit(proto)`` applied."""
    proto = schema.ModelProto()
    with open(case.model_path, "rb") as f:
        proto.ParseFromString(f.read())
    edit(proto)
    path = tmp_path / "model.mindir"
    path.write_bytes(proto.SerializeToString())
    return str(path)


@pytest.mark.parametrize("name", ["mlp", "ctrl_while", "ctrl_if"])
def test_file_order_is_not_trusted(name, tmp_path):
    case = golden_case(name)

    def reverse_nodes(proto):
        for graph in [proto.graph, *proto.functions]:
            nodes = list(graph.node)[::-1]
            del graph.node[:]
            graph.node.extend(nodes)

    model = LoadedModel(_rewrite(case, tmp_path, reverse_nodes))
    for got, exp in zip(model.run(case.inputs()), case.outputs()):
        assert_close(got, exp, **case.tolerance)


def _adds(*nodes, output="c"):
    """A one-graph file of Add nodes, ``(name, a, b)`` in file order."""
    tensor = Abstract("tensor", (2,), np.dtype("float32"))
    raw = RawGraph("main", [ValueInfo("x", tensor)],
                   [RawNode(n, "REF::Add:1", (a, b), n, tensor) for n, a, b in nodes],
                   {}, {}, ValueInfo(output, tensor))
    return MindIRFile("adds.mindir", [raw], {"Add:1": Primitive("Add:1", "Add", {}, True)},
                      1, "2.7.1")


@pytest.mark.parametrize("nodes", [
    [("a", "x", "x"), ("dead", "a", "x"), ("b", "a", "x"), ("c", "b", "a")],
    [("c", "b", "a"), ("b", "a", "x"), ("dead", "a", "x"), ("a", "x", "x")]],
    ids=["producers first", "readers first"])
def test_nodes_run_producers_first_and_unread_ones_are_dropped(nodes):
    model = build_model(_adds(*nodes))
    assert [n.name for n in model.main.nodes] == ["a", "b", "c"]
    program = cpu_plan.compile_model(model, "reference")
    x = np.array([1, 2], np.float32)
    assert executor.run(program, [x]).tolist() == [5, 10]    # (2x + x) + 2x


@pytest.mark.parametrize("nodes", [[("c", "c", "x")],
                                   [("b", "c", "x"), ("c", "b", "x")]],
                         ids=["itself", "two nodes"])
def test_a_node_reading_its_own_result_is_refused(nodes):
    with pytest.raises(GraphError, match=r"adds\.mindir.*graph 'main' has a cycle "
                                         r"through '[bc]'"):
        build_model(_adds(*nodes))


def test_dead_values_are_freed_after_last_use():
    model = LoadedModel(golden_case("lenet5").model_path)
    plan = model.program.plans[model.program.main]
    node_slots = {s.out for s in plan.steps} - {plan.output}
    freed = [slot for step in plan.steps for slot in step.frees]
    assert sorted(freed) == sorted(set(freed)), "a slot freed twice"
    assert node_slots <= set(freed)
    assert plan.output not in freed
    # each slot is freed by the last step that reads it
    for index, step in enumerate(plan.steps):
        later_reads = {slot for s in plan.steps[index + 1:]
                       for _, slot, _ in s.dynamic}
        assert not set(step.frees) & later_reads


def test_keep_disables_freeing_and_gives_same_result():
    case = golden_case("lenet5")
    model = LoadedModel(case.model_path)
    kept = model._program(keep=True)
    assert all(not step.frees for plan in kept.plans.values()
               for step in plan.steps)
    assert_close(model.run(case.inputs(), keep=True)[0], case.outputs()[0],
                 **case.tolerance)


def test_hooks_see_every_kernel_in_dependency_order():
    case = golden_case("lenet5")
    model = LoadedModel(case.model_path)
    seen, shapes, scopes = [], {}, {}

    def before(node, inputs):
        seen.append(node.name)
        scopes[node.name] = node.scope

    def after(node, inputs, output):
        shapes[node.name] = np.shape(output)

    outputs = model.run(case.inputs(), hooks=Hooks(before, after))
    plan = model.program.plans[model.program.main]
    assert seen == [step.node.name for step in plan.steps]
    assert len(seen) == len(set(seen))
    position = {name: k for k, name in enumerate(seen)}
    for step in plan.steps:
        for arg in step.node.args:
            if arg.ref.kind is RefKind.NODE:
                assert position[arg.ref.key] < position[step.node.name]
    assert shapes[seen[-1]] == outputs[0].shape
    conv = [n for n in seen if "Conv2D" in scopes[n]]
    assert shapes[conv[0]] == (1, 6, 28, 28)


def test_kernel_errors_name_file_node_op_and_inputs(monkeypatch):
    case = golden_case("mlp")
    op = registry.get_op("MatMul")

    def broken(*args):
        raise ValueError("deliberate failure")

    monkeypatch.setattr(op, "reference", broken)
    model = LoadedModel(case.model_path)
    with pytest.raises(NodeError) as info:
        model.run(case.inputs())
    message = str(info.value)
    assert message.startswith(f"{case.model_path}: node ")    # once
    assert message.count(case.model_path) == 1 and info.value.path == case.model_path
    assert "Default/fc1-Dense/MatMul-op0" in message
    assert "op MatMul" in message
    assert "deliberate failure" in message
    assert "float32[2, 4]" in message and "float32[8, 4]" in message


def test_wrong_input_count_dtype_and_shape_are_refused():
    case = golden_case("mlp")
    model = LoadedModel(case.model_path)
    x = case.inputs()[0]
    with pytest.raises(ValueError, match="takes 1 input"):
        model.run([x, x])
    with pytest.raises(TypeError, match="expects dtype float32, got float64"):
        model.run([x.astype(np.float64)])
    with pytest.raises(ValueError, match=r"expects shape \[2, 4\]"):
        model.run([x.reshape(4, 2)])


def test_ten_thousand_iteration_loop_keeps_a_flat_stack():
    case = golden_case("ctrl_while_long")
    x, n = case.inputs()
    assert int(n) == 10000
    depth = []

    def before(node, inputs):
        frame, count = sys._getframe(), 0
        while frame is not None:
            frame, count = frame.f_back, count + 1
        depth.append(count)

    model = LoadedModel(case.model_path)
    got = model.run([x, n], hooks=Hooks(before))
    assert_close(got[0], case.outputs()[0], **case.tolerance)
    assert max(depth) - min(depth) == 0


def test_the_cycle_collector_is_paused_while_a_model_is_built(monkeypatch):
    """Full collections walk every object made so far: a sixth of a
    10^5-node build's time (tools/bench_build.py). The setting is restored."""
    seen = []

    def build_model(file):
        seen.append(gc.isenabled())
        return real_build(file)
    real_build = runtime.build_model
    monkeypatch.setattr(runtime, "build_model", build_model)
    assert gc.isenabled()
    LoadedModel(golden_case("mlp").model_path)
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        LoadedModel(golden_case("mlp").model_path)
        assert not gc.isenabled()       # a caller's choice is kept
    finally:
        gc.enable()


def test_a_build_leaves_its_objects_in_the_oldest_generation():
    """The objects made while the collector was paused are moved to the
    oldest generation unwalked (the young collections would walk them twice
    to put them there); a garbage cycle made before the build is still
    collected (no automatic collection in between: it is still there)."""
    class Cyclic:
        pass
    thresholds = gc.get_threshold()
    gc.set_threshold(10 ** 9)
    try:
        cycle = Cyclic()
        cycle.me = cycle
        collected = []
        weakref.finalize(cycle, collected.append, True)
        del cycle
        model = LoadedModel(golden_case("mlp").model_path)
        young = {id(o) for o in gc.get_objects(0) + gc.get_objects(1)}
        nodes = model.model.main.nodes
        assert len(nodes) > 3 and not any(id(n) in young for n in nodes)
        assert gc.isenabled() and collected == []
        gc.collect()
        assert collected == [True]
    finally:
        gc.set_threshold(*thresholds)


def _bench_build():
    """tools/bench_build.py as a module (tools/ is not a package)."""
    path = os.path.join(os.path.dirname(__file__), os.pardir, "tools",
                        "bench_build.py")
    spec = importlib.util.spec_from_file_location("bench_build", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("op, expected", [
    ("relu", lambda x: np.maximum(x, 0)), ("add", lambda x: x * 2.0 ** 20)])
@pytest.mark.parametrize("backend", ["reference", "numba"])
def test_the_build_benchmark_chains_compute_what_they_say(op, expected, backend,
                                                          tmp_path):
    path = tmp_path / "chain.mindir"
    path.write_bytes(_bench_build().chain_model(20, op))
    x = np.linspace(-2, 2, 8, dtype=np.float32).reshape(2, 4)
    model = LoadedModel(str(path), backend)
    np.testing.assert_allclose(model.run([x])[0], expected(x), rtol=1e-6)


@pytest.mark.parametrize("precision", ["float32", "float16"])
def test_the_steps_of_one_op_share_its_kernel(precision, tmp_path):
    """One kernel per op, not per node (float16: one rounding wrapper)."""
    path = tmp_path / "chain.mindir"
    path.write_bytes(_bench_build().chain_model(5, "add"))
    program = cpu_plan.compile_model(build_model(read_mindir(str(path))), "numba",
                                     precision=precision)
    steps = program.plans[program.main].steps
    assert len(steps) == 5 and len({id(step.fn) for step in steps}) == 1
    x = np.ones((2, 4), np.float32)
    np.testing.assert_array_equal(executor.run(program, [x]), x * 32)


def _write_both(x, a, b):
    """A test op writing ``a`` and ``b`` in place: a + x and b - x."""
    return a + x, b - x


def test_loads_after_a_write_of_two_parameters_read_their_own_new_value(monkeypatch):
    """``mutates`` naming two parameters (ReshapeAndCache's two caches): a
    Load after the writer's UpdateState reads element k of its result for
    the k-th parameter, as does ``Depend(b, writer)``; a Load before it
    reads the parameter itself."""
    registry.load_all()     # (an op loaded into the copy would be lost after)
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    registry.register("WriteBoth", family="nn", mutates=("a", "b"))(_write_both)
    prims = {f"{p}:1": Primitive(f"{p}:1", p, {}, p == "WriteBoth")
             for p in ("WriteBoth", "UpdateState", "Load", "Depend", "MakeTuple")}
    tensor = Abstract("tensor", (2,), np.dtype("float32"))

    def node(name, prim, *inputs):
        return RawNode(name, f"REF::{prim}:1", list(inputs), name, tensor)
    nodes = [node("old_a", "Load", "a", "u"),
             node("write", "WriteBoth", "x", "a", "b", "u"),
             node("u2", "UpdateState", "u", "write"),
             node("new_b", "Load", "b", "u2"), node("new_a", "Load", "a", "u2"),
             node("b_after", "Depend", "b", "write"),
             node("out", "MakeTuple", "old_a", "new_a", "new_b", "b_after")]
    raw = RawGraph("main", [ValueInfo("x", tensor)], nodes, {"u": MONAD},
                   {"a": np.array([1, 2], np.float32),
                    "b": np.array([10, 20], np.float32)}, ValueInfo("out", tensor))
    model = build_model(MindIRFile("two.mindir", [raw], prims, 1, "2.7.1"))
    getters = {n.name: [a.ref.key for a in n.args] for n in model.main.nodes
               if n.op_name == "TupleGetItem"}
    assert getters == {"new_a": ["write", 0], "new_b": ["write", 1],
                       "b_after": ["write", 1]}
    program = cpu_plan.compile_model(model, "reference")
    got = executor.flatten(executor.run(program, [np.array([5, 7], np.float32)]))
    assert [g.tolist() for g in got] == [[1, 2], [6, 9], [5, 13], [5, 13]]
