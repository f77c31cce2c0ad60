"""Graphs that call themselves (issue 17, root cause 2): graph calls nest up
to ``[refinfer] max_call_depth`` (MindSpore's 1000 by default) and stop with
an error naming the graph and the call node; the build's warm-up run on
zeros is bounded, so a loop that never ends cannot hang a build."""
import faulthandler
import sys

import pytest

from refinfer.api import Model, ModelType
from refinfer.errors import CallDepthError
from refinfer.format import schema
from refinfer.runtime import LoadedModel

from golden_cases import golden_case

CASE = golden_case("ctrl_while")        # main -> header <-> body (the loop)


def _graph(proto, mark: str):
    """The function graph whose name has ``mark`` (↻ body, ↵ header)."""
    return next(g for g in proto.functions if mark in g.name)


def _self_calling(tmp_path, tail: bool) -> str:
    """ctrl_while with main calling the loop body directly and the body
    calling itself for ever: as its output (a tail call, an endless loop)
    or followed by an Add (each call nests one level deeper)."""
    proto = schema.ModelProto()
    with open(CASE.model_path, "rb") as f:
        proto.ParseFromString(f.read())
    body = _graph(proto, "↻")
    x, i, n = body.input
    call = body.node[-1]                    # the tail call of the header
    add_x = body.node[3]                    # x + 1
    call.op_type = f"REF::{body.name}"
    call.input[:] = [add_x.output[0], body.node[1].output[0], n.name]
    entry = proto.graph.node[-1]            # main's call of the header
    entry.op_type = f"REF::{body.name}"
    entry.input[:] = [entry.input[2], entry.input[1], entry.input[0]]
    if not tail:
        after = body.node.add()
        after.CopyFrom(add_x)
        after.name = after.output[0] = f"{body.name}:after_call"
        after.input[0] = call.output[0]
        body.output[0].name = after.output[0]
    path = tmp_path / f"self_call_{'tail' if tail else 'nested'}.mindir"
    path.write_bytes(proto.SerializeToString())
    return str(path)


@pytest.fixture
def no_hang():
    """Turns a hang into a failure with every thread's traceback."""
    faulthandler.dump_traceback_later(120, exit=True, file=sys.__stderr__)
    yield
    faulthandler.cancel_dump_traceback_later()


def test_a_nested_self_call_stops_at_max_call_depth(tmp_path, no_hang):
    model = LoadedModel(_self_calling(tmp_path, tail=False))
    with pytest.raises(CallDepthError) as info:
        model.run(CASE.inputs())
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
    model.build_from_file(_self_calling(tmp_path, tail=False),
                          ModelType.MINDIR, config_dict=config)
    with pytest.raises(RuntimeError, match=r"^predict failed! Error is node "
                       r".*deeper than max_call_depth=50"):
        model.predict(CASE.inputs())


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
    path = _self_calling(tmp_path, tail=True)
    model = LoadedModel(path, backend="numba")
    assert "warm-up stopped after 10000 graph calls" in model.warmup_note
    assert f"refinfer: {path}: warm-up stopped" in capsys.readouterr().err
    Model().build_from_file(path, ModelType.MINDIR)   # the API builds it too


def test_loops_do_not_count_towards_the_depth():
    case = golden_case("ctrl_while_long")           # 10,000 iterations
    model = LoadedModel(case.model_path, max_call_depth=3)
    assert model.run(case.inputs())[0].shape == (2, 4)
    assert model.warmup_note == ""
