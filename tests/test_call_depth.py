"""Graphs that call themselves (issue 17, root cause 2): a graph that calls
itself unconditionally (directly or through other direct calls) fails at
build; graph calls nest up to ``[refinfer] max_call_depth`` (MindSpore's
1000 by default) and stop with an error naming the graph and the call node;
the build's warm-up run on zeros is bounded, so a loop that never ends
cannot hang a build, and a predict makes at most ``[refinfer]
max_graph_calls`` graph calls (100,000 by default), so it cannot hang
either."""
import faulthandler
import re
import sys

import numpy as np
import pytest

from refinfer.api import Model, ModelType
from refinfer.errors import CallBudgetExceeded, CallDepthError, GraphError
from refinfer.format import schema
from refinfer.runtime import LoadedModel

from golden_cases import golden_case

CASE = golden_case("ctrl_while")        # main -> header <-> body (the loop)


def _graph(proto, mark: str):
    """The function graph whose name has ``mark`` (↻ body, ↵ header)."""
    return next(g for g in proto.functions if mark in g.name)


def _edited(tmp_path, name: str, edit) -> str:
    """ctrl_while, with ``edit(proto, body)`` applied, written to ``name``."""
    proto = schema.ModelProto()
    with open(CASE.model_path, "rb") as f:
        proto.ParseFromString(f.read())
    edit(proto, _graph(proto, "↻"))
    path = tmp_path / f"{name}.mindir"
    path.write_bytes(proto.SerializeToString())
    return str(path)


def _add_after_call(body) -> None:
    """Make the body's call (its output) nest: it is followed by x + 1."""
    call, add_x = body.node[-1], body.node[3]
    after = body.node.add()
    after.CopyFrom(add_x)
    after.name = after.output[0] = f"{body.name}:after_call"
    after.input[0] = call.output[0]
    body.output[0].name = after.output[0]


def _self_calling(tmp_path, tail: bool) -> str:
    """ctrl_while with main calling the loop body directly and the body
    calling itself for ever: as its output (a tail call, an endless loop)
    or followed by an Add (each call nests one level deeper)."""
    def edit(proto, body):
        x, i, n = body.input
        call = body.node[-1]                    # the tail call of the header
        call.op_type = f"REF::{body.name}"
        call.input[:] = [body.node[3].output[0], body.node[1].output[0], n.name]
        entry = proto.graph.node[-1]            # main's call of the header
        entry.op_type = f"REF::{body.name}"
        entry.input[:] = [entry.input[2], entry.input[1], entry.input[0]]
        if not tail:
            _add_after_call(body)
    return _edited(tmp_path, f"self_call_{'tail' if tail else 'nested'}", edit)


def _nested_loop(tmp_path) -> str:
    """ctrl_while whose body's call of the loop header is followed by an Add:
    a recursion that ends (through the header's Switch) after n calls, each
    one level deeper; the build cannot tell how deep it goes."""
    return _edited(tmp_path, "nested_loop", lambda proto, body:
                   _add_after_call(body))


def _endless_loop(tmp_path) -> str:
    """ctrl_while whose loop runs while i >= n (the header's Switch has its
    branches swapped): on zeros, as i grows, it never ends, and only a run
    can tell."""
    def edit(proto, body):
        switch = _graph(proto, "↵").node[3]
        switch.input[1], switch.input[2] = switch.input[2], switch.input[1]
    return _edited(tmp_path, "endless_loop", edit)


def _deep_inputs() -> list:
    """ctrl_while's inputs with n = 5000 loop iterations."""
    x, n = CASE.inputs()
    return [x, np.full_like(n, 5000)]


@pytest.fixture
def no_hang():
    """Turns a hang into a failure with every thread's traceback."""
    faulthandler.dump_traceback_later(120, exit=True, file=sys.__stderr__)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.mark.parametrize("tail", [True, False])
def test_a_graph_calling_itself_unconditionally_fails_at_build(tmp_path, tail):
    path = _self_calling(tmp_path, tail)
    with pytest.raises(GraphError) as info:
        LoadedModel(path)
    message = str(info.value)
    assert message.startswith(f"{path}: graph ")
    assert "CtrlWhile_construct_781' calls itself (node " in message
    assert "partial_trans_CNode_791:13')" in message   # the call node
    assert "unconditionally, so the calls can never end" in message
    with pytest.raises(RuntimeError, match=r"^build_from_file failed! Error is "
                       r".*calls itself .* can never end"):
        Model().build_from_file(path, ModelType.MINDIR)


def test_graphs_calling_each_other_unconditionally_fail_at_build(tmp_path):
    def edit(proto, body):             # the header calls the body directly
        header = _graph(proto, "↵")
        n, i, x = header.input
        call = header.node[-1]
        call.op_type = f"REF::{body.name}"
        call.input[:] = [x.name, i.name, n.name]
    path = _edited(tmp_path, "mutual_calls", edit)
    with pytest.raises(GraphError, match=r"graphs call each other: graph "
                       r"'\S+↵nets_CtrlWhile_construct_777' \(node '\S+:CNode_786:9'\) "
                       r"calls graph '\S+↻nets_CtrlWhile_construct_781', graph "
                       r"'\S+↻nets_CtrlWhile_construct_781' \(node "
                       r"'\S+:partial_trans_CNode_791:13'\) calls graph "
                       r"'\S+↵nets_CtrlWhile_construct_777' unconditionally"):
        LoadedModel(path)


def test_a_main_graph_applying_itself_fails_at_build(tmp_path, no_hang):
    """The fuzzer's hang:predict: Softsign's node applies its own graph."""
    proto = schema.ModelProto()
    with open(golden_case("ops/softsign_float64").model_path, "rb") as f:
        proto.ParseFromString(f.read())
    node = proto.graph.node[0]
    node.op_type = f"REF::{proto.graph.name}"
    path = tmp_path / "softsign_self_call.mindir"
    path.write_bytes(proto.SerializeToString())
    with pytest.raises(RuntimeError, match=r"^build_from_file failed! Error is "
                       rf".*: graph '{proto.graph.name}' calls itself \(node "
                       rf"'{node.name}'\) unconditionally"):
        Model().build_from_file(str(path), ModelType.MINDIR)


def test_a_deep_recursion_stops_at_max_call_depth(tmp_path, no_hang):
    model = LoadedModel(_nested_loop(tmp_path))
    with pytest.raises(CallDepthError) as info:
        model.run(_deep_inputs())
    message = str(info.value)
    assert "deeper than max_call_depth=1000" in message
    assert "at call depth 1001" in message
    assert "CtrlWhile_construct_781' calls graph" in message
    assert "partial_trans_CNode_791" in message       # the call node
    assert "float32[2, 4]" in message


def test_predict_wraps_the_depth_error_and_takes_the_configured_limit(
        tmp_path, no_hang):
    model = Model()
    config = {"refinfer": {"backend": "reference", "max_call_depth": "50"}}
    path = _nested_loop(tmp_path)
    model.build_from_file(path, ModelType.MINDIR, config_dict=config)
    with pytest.raises(RuntimeError, match=rf"^predict failed! Error is "
                       rf"{re.escape(str(path))}: node "
                       r".*deeper than max_call_depth=50"):
        model.predict(_deep_inputs())


@pytest.mark.parametrize("value", ["0", "-3", "ten", "1e3", "2000000", "١٠"])
def test_max_call_depth_must_be_a_positive_integer(value):
    model = Model()
    with pytest.raises(RuntimeError, match=rf"build_from_file failed! Error is "
                       rf"\[refinfer\] max_call_depth='{value}': expected an "
                       rf"integer from 1 to 1000000"):
        model.build_from_file(CASE.model_path, ModelType.MINDIR, config_dict={
            "refinfer": {"max_call_depth": value}})


def test_a_loop_that_never_ends_does_not_hang_the_build(tmp_path, capsys,
                                                        no_hang):
    path = _endless_loop(tmp_path)
    model = LoadedModel(path, backend="numba")
    assert "warm-up stopped after 10000 graph calls" in model.warmup_note
    assert f"refinfer: {path}: warm-up stopped" in capsys.readouterr().err
    Model().build_from_file(path, ModelType.MINDIR)   # the API builds it too


def test_a_loop_that_never_ends_stops_a_predict_naming_graph_and_node(
        tmp_path, no_hang):
    model = LoadedModel(_endless_loop(tmp_path), max_graph_calls=500)
    with pytest.raises(CallBudgetExceeded) as info:
        model.run([np.zeros_like(a) for a in CASE.inputs()])
    message = str(info.value)
    assert "more than 500 graph calls in one run (a loop that never ends?)" \
        in message
    assert "↻nets_CtrlWhile_construct_781' calls graph" in message
    assert "[refinfer] max_graph_calls sets the limit (0: none)" in message


def test_predict_takes_the_configured_call_budget(tmp_path, no_hang):
    path = _endless_loop(tmp_path)
    model = Model()
    model.build_from_file(path, ModelType.MINDIR, config_dict={
        "refinfer": {"backend": "reference", "max_graph_calls": "300"}})
    with pytest.raises(RuntimeError, match=rf"^predict failed! Error is "
                       rf"{re.escape(str(path))}: node "
                       r".*more than 300 graph calls in one run"):
        model.predict([np.zeros_like(a) for a in CASE.inputs()])
    assert LoadedModel(path).max_graph_calls == 100_000     # the default


def test_no_call_budget_with_zero():
    case = golden_case("ctrl_while_long")           # 10,000 iterations
    model = LoadedModel(case.model_path, max_graph_calls=0)
    assert model.max_graph_calls is None
    np.testing.assert_allclose(model.run(case.inputs())[0],
                               case.outputs()[0], rtol=1e-5, atol=1e-6)
    with pytest.raises(CallBudgetExceeded, match="more than 5000 graph calls"):
        LoadedModel(case.model_path, max_graph_calls=5000).run(case.inputs())


@pytest.mark.parametrize("value", ["-1", "ten", "1e3", str(10 ** 13)])
def test_max_graph_calls_must_be_a_non_negative_integer(value):
    with pytest.raises(RuntimeError, match=rf"build_from_file failed! Error is "
                       rf"\[refinfer\] max_graph_calls='{value}': expected an "
                       rf"integer from 0 to 1000000000000 \(default 100000\)"):
        Model().build_from_file(CASE.model_path, ModelType.MINDIR, config_dict={
            "refinfer": {"max_graph_calls": value}})


def test_loops_do_not_count_towards_the_depth():
    case = golden_case("ctrl_while_long")           # 10,000 iterations
    model = LoadedModel(case.model_path, max_call_depth=3)
    assert model.run(case.inputs())[0].shape == (2, 4)
    assert model.warmup_note == ""
