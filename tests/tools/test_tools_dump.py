"""``refinfer dump`` and ``run_debug``: node outputs as they are produced."""
import os
import re

import numpy as np
import pytest

from refinfer.executor import Hooks
from refinfer.runtime import LoadedModel
from refinfer.tools import common as tools_common
from refinfer.tools import dump as tools_dump
from refinfer.tools.debug import run_debug

from helpers_tools import (golden_file, golden_input_files, golden_inputs,
                           golden_model, leftovers, read_json, run_cli)

LENET = golden_file("lenet5", "model.mindir")
SAFE = re.compile(r"^[A-Za-z0-9._-]+$")


def executed(case: str) -> list:
    """(node, output) of every kernel step a plain run executes."""
    runs = []
    golden_model(case).run(golden_inputs(case),
                           Hooks(after=lambda n, i, o: runs.append((n, o))))
    return runs


@pytest.fixture(scope="module")
def lenet_dump(tmp_path_factory):
    out = tmp_path_factory.mktemp("dump") / "lenet"
    outputs, manifest = tools_dump.dump(golden_model("lenet5"),
                                        golden_inputs("lenet5"), str(out))
    return out, outputs, manifest


def test_one_entry_per_executed_kernel_node(lenet_dump):
    out, _, manifest = lenet_dump
    runs = executed("lenet5")
    tensors = manifest["tensors"]
    assert len(tensors) == len(runs) == 17
    assert [t["index"] for t in tensors] == list(range(17))
    for entry, (node, output) in zip(tensors, runs):
        assert (entry["node"], entry["scope"], entry["op"]) == \
            (node.name, node.scope, node.op.name)
        assert entry["name"] == node.scope
        assert entry["shape"] == list(output.shape)
        assert entry["dtype"] == output.dtype.name
        saved = np.load(out / entry["file"])
        assert saved.tobytes() == output.tobytes()
        assert entry["max"] == float(output.max())
    assert read_json(out / "manifest.json") == manifest
    assert manifest["complete"] is True


def test_dump_run_outputs_are_bit_identical(lenet_dump):
    out, outputs, manifest = lenet_dump
    plain = golden_model("lenet5").run(golden_inputs("lenet5"))
    assert len(outputs) == len(plain) == 1
    assert outputs[0].dtype == plain[0].dtype
    assert outputs[0].tobytes() == plain[0].tobytes()
    last = np.load(out / manifest["tensors"][-1]["file"])
    assert last.tobytes() == plain[0].tobytes()


def test_file_names_are_safe_and_names_kept(lenet_dump):
    out, _, manifest = lenet_dump
    files = sorted(os.listdir(out))
    assert all(SAFE.match(f) for f in files)
    assert len(files) == 17 + 2        # tensors, input_0.npy, manifest.json
    entry = manifest["tensors"][0]
    assert entry["node"] == "70_1_nets_LeNet5_construct_14:output:3"
    assert entry["file"] == "000000_Default_conv1-Conv2d_Conv2D-op0.npy"


@pytest.mark.parametrize("patterns, count", [
    (["*conv1*"], 2),                                # scope glob
    (["ReLU"], 4),                                   # op name
    (["re:fc[12]-Dense/MatMul"], 2),                 # regex
    (["*:output:3"], 1),                             # node name
    (["ReLU", "MaxPool"], 6),                        # any of several
    (["nothing"], 0),
])
def test_nodes_filter(tmp_path, capsys, patterns, count):
    out = tmp_path / "d"
    code, stdout, _ = run_cli(capsys, "dump", LENET, "--input",
                              *golden_input_files("lenet5"), "--out", out,
                              "--nodes", *patterns)
    assert code == 0 and f"dumped {count} tensor(s)" in stdout
    manifest = read_json(out / "manifest.json")
    assert manifest["nodes"] == patterns
    assert len(manifest["tensors"]) == count
    assert len(os.listdir(out)) == count + 2


def test_stats_only(tmp_path, capsys):
    out = tmp_path / "d"
    code, stdout, _ = run_cli(capsys, "dump", LENET, "--out", out,
                              "--stats-only")
    assert code == 0 and "statistics of 17 tensor(s)" in stdout
    assert os.listdir(out) == ["manifest.json"]
    entry = read_json(out / "manifest.json")["tensors"][2]
    assert entry["op"] == "ReLU" and entry["min"] == 0.0
    assert "file" not in entry and {"max", "mean", "std", "nan"} <= set(entry)


def test_loop_runs_are_numbered(tmp_path):
    case = "ctrl_while"
    _, manifest = tools_dump.dump(golden_model(case), golden_inputs(case),
                                  str(tmp_path / "d"), nodes=["Add"])
    names = [t["name"] for t in manifest["tensors"]]
    adds = [n for n in names if n.startswith("Default/Add-op1")]
    assert adds == ["Default/Add-op1"] + [f"Default/Add-op1@{k}"
                                          for k in range(1, 5)]
    assert any("↻" in t["node"] for t in manifest["tensors"])
    assert all(SAFE.match(t["file"]) for t in manifest["tensors"])
    last = np.load(tmp_path / "d" / manifest["tensors"][-1]["file"])
    expected = np.load(golden_file(case, "output_0.npy"))
    np.testing.assert_allclose(last, expected, rtol=1e-6)


def test_tuple_outputs_one_file_per_element(tmp_path):
    _, manifest = tools_dump.dump(golden_model("multi_output"),
                                  golden_inputs("multi_output"),
                                  str(tmp_path / "d"), nodes=["MakeTuple"])
    first, second = manifest["tensors"]
    assert second["name"] == first["name"] + ":1"
    assert (first["element"], second["element"]) == (0, 1)
    assert first["index"] == second["index"] and first["file"] != second["file"]
    np.testing.assert_array_equal(
        np.load(tmp_path / "d" / second["file"]),
        golden_model("multi_output").run(golden_inputs("multi_output"))[1])


def test_dump_compares_with_golden_by_name(tmp_path, capsys):
    run_cli(capsys, "golden", LENET, "--out", tmp_path / "g")
    run_cli(capsys, "dump", LENET, "--out", tmp_path / "d")
    code, out, _ = run_cli(capsys, "compare", tmp_path / "g", tmp_path / "d",
                           "--atol", 0, "--rtol", 0)
    assert code == 0
    assert "2 tensor(s) compared" in out      # the input and the output


def broken_lenet(fail_at: int) -> LoadedModel:
    """LeNet5 whose ``fail_at``-th kernel raises."""
    model = LoadedModel(LENET)
    step = model.program.plans[model.program.main].steps[fail_at]

    def fail(*args):
        raise FloatingPointError("overflow")
    step.fn = fail
    return model


def test_node_failure_publishes_the_partial_dump(tmp_path):
    out = tmp_path / "d"
    with pytest.raises(tools_dump.DumpError, match="MaxPool.*overflow"):
        tools_dump.dump(broken_lenet(3), golden_inputs("lenet5"), str(out))
    manifest = read_json(out / "manifest.json")
    assert manifest["complete"] is False and "overflow" in manifest["error"]
    assert [t["op"] for t in manifest["tensors"]] == ["Conv2D", "BiasAdd",
                                                      "ReLU"]
    assert leftovers(tmp_path) == []


def test_node_failure_on_the_command_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(tools_common, "load_model",
                        lambda path, *options: broken_lenet(5))
    code, _, err = run_cli(capsys, "dump", LENET, "--out", tmp_path / "d")
    assert code == 3 and "the dump up to this node is in" in err
    assert (tmp_path / "d" / "manifest.json").exists()


def test_bad_inputs_leave_nothing(tmp_path, capsys):
    code, _, err = run_cli(capsys, "dump", LENET, "--input",
                           golden_file("mlp", "input_0.npy"), "--out",
                           tmp_path / "d")
    assert code == 3 and "needs float32[1, 1, 32, 32]" in err
    assert os.listdir(tmp_path) == []
    code, _, err = run_cli(capsys, "dump", LENET, "--out", tmp_path / "d",
                           "--nodes", "re:(")
    assert code == 2 and "bad regular expression" in err     # usage
    assert os.listdir(tmp_path) == []


def test_run_debug_by_pattern(lenet_dump):
    out, _, manifest = lenet_dump
    kept = run_debug(golden_model("lenet5"), golden_inputs("lenet5"),
                     keep="*relu*")
    scopes = [f"Default/relu-ReLU/ReLU-op{k}" for k in range(4)]
    assert sorted(k for k in kept if k.startswith("Default")) == scopes
    assert len(kept) == 8                   # by scope name and by node name
    by_scope = {t["name"]: t for t in manifest["tensors"]}
    for scope in scopes:
        entry = by_scope[scope]
        assert kept[entry["node"]] is kept[scope]
        np.testing.assert_array_equal(kept[scope], np.load(out /
                                                           entry["file"]))


def test_run_debug_by_names_and_regex():
    model, inputs = golden_model("lenet5"), golden_inputs("lenet5")
    kept = run_debug(model, inputs, keep=["Default/fc1-Dense/MatMul-op0",
                                          "70_1_nets_LeNet5_construct_14:x:33"])
    assert sorted(kept) == [
        "70_1_nets_LeNet5_construct_14:x:22",
        "70_1_nets_LeNet5_construct_14:x:33",
        "Default/fc1-Dense/MatMul-op0", "Default/fc3-Dense/MatMul-op0"]
    assert kept["Default/fc1-Dense/MatMul-op0"].shape == (1, 120)
    kept = run_debug(model, inputs, keep="re:^Conv2D$")
    assert {k for k in kept if k.startswith("Default")} == {
        "Default/conv1-Conv2d/Conv2D-op0", "Default/conv2-Conv2d/Conv2D-op0"}
    assert run_debug(model, inputs, keep=[]) == {}


def test_run_debug_tuple_elements():
    case = "resnet18_narrow"
    node = next(n for n, _ in executed(case) if n.op.name == "BatchNorm")
    kept = run_debug(golden_model(case), golden_inputs(case),
                     keep=[node.scope])
    scope = node.scope
    assert sorted(k for k in kept if k.startswith("Default")) == \
        [scope] + [f"{scope}:{k}" for k in range(1, 5)]
    assert kept[f"{node.name}:4"] is kept[f"{scope}:4"]
