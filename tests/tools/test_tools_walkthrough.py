"""``refinfer explain`` and ``refinfer walk``."""
import io
import re

import numpy as np
import pytest

from refinfer.tools.explain import explain
from refinfer.tools.walk import formula, summary, walk

from helpers_tools import (golden_file, golden_input_files, golden_inputs,
                           golden_model, run_cli)

LENET = golden_file("lenet5", "model.mindir")
STEP = re.compile(r"^── step (\d+): %(\d+) = (\w+)", re.M)


def test_explain_one_line_per_node():
    text = explain(golden_model("lenet5"))
    lines = [line for line in text.splitlines() if line.startswith("  #")]
    nodes = golden_model("lenet5").model.main.nodes
    assert len(lines) == len(nodes) == 17
    for k, (line, node) in enumerate(zip(lines, nodes)):
        assert line.startswith(f"  #{k:<3} %{k} = {node.op.name}(")
        assert line.endswith(node.scope)
    assert lines[0] == (
        "  #0   %0 = Conv2D(x, conv1.weight, out_channel=6, kernel_size=(5, 5),"
        " pad_list=(0, 0, 0, 0))  float32[1,6,28,28]  "
        "Default/conv1-Conv2d/Conv2D-op0")
    assert "  #1   %1 = BiasAdd(%0, conv1.bias)  float32[1,6,28,28]" in text
    assert text.splitlines()[0] == \
        "main @70_1_nets_LeNet5_construct_14(x: float32[1,1,32,32]):"
    assert "  return %16  float32[1,10]" in text


def test_explain_control_flow_as_functions():
    text = explain(golden_model("ctrl_if"))
    defs = [line for line in text.splitlines() if line.startswith("def @")]
    assert len(defs) == 2 and text.endswith("9 node(s) in 3 graph(s)")
    branches = re.findall(r"= Partial\(@(\S+), x\)", text)
    assert sorted(branches) == sorted(d[5:d.index("(")] for d in defs)
    assert "= Switch(%1, %2, %3)" in text and "= call %4()" in text


def test_explain_cli(capsys):
    code, out, _ = run_cli(capsys, "explain", LENET)
    assert code == 0 and out.count(" = ") == 17


def test_walk_shows_every_node():
    out = io.StringIO()
    outputs = walk(golden_model("lenet5"), golden_inputs("lenet5"), out)
    text = out.getvalue()
    steps = STEP.findall(text)
    assert [int(s[0]) for s in steps] == list(range(17))
    assert steps[0][2] == "Conv2D" and steps[-1][2] == "BiasAdd"
    assert "│ y[n, o, i, j] = sum_{c, p, q}" in text        # Conv2D's formula
    assert "   in  conv1.weight: float32[6,1,5,5] min " in text
    assert "   with out_channel=6, kernel_size=(5, 5)" in text
    expected = golden_model("lenet5").run(golden_inputs("lenet5"))[0]
    assert outputs[0].tobytes() == expected.tobytes()
    assert text.splitlines()[-1].startswith("done: 17 node(s) shown")


def test_walk_filter_and_loops():
    out = io.StringIO()
    walk(golden_model("ctrl_while"), golden_inputs("ctrl_while"), out,
         nodes=["Add"])
    steps = STEP.findall(out.getvalue())
    assert [s[2] for s in steps] == ["Add"] * 10
    assert "(run 5)" in out.getvalue()


def scripted(commands):
    remaining = list(commands)

    def read(prompt):
        assert "c PATTERN" in prompt
        if not remaining:
            raise EOFError
        return remaining.pop(0)
    return read


@pytest.mark.parametrize("commands, shown, finished", [
    (["", "q"], [0, 1], False),                  # step, then quit
    (["", "c *fc2*", "q"], [0, 1, 12], False),   # continue to a node
    (["c"], list(range(17)), True),              # continue to the end
    (["", "bogus", ""], [0, 1, 2], False),       # unknown command, then EOF
])
def test_walk_interactive(commands, shown, finished):
    out = io.StringIO()
    result = walk(golden_model("lenet5"), golden_inputs("lenet5"), out,
                  interactive=True, read=scripted(commands))
    assert [int(s[0]) for s in STEP.findall(out.getvalue())] == shown
    assert (result is not None) == finished
    if "bogus" in commands:
        assert "unknown command 'bogus'" in out.getvalue()


def test_walk_cli(capsys):
    code, out, _ = run_cli(capsys, "walk", LENET, "--input",
                           *golden_input_files("lenet5"), "--nodes", "ReLU",
                           "--values", "2")
    assert code == 0 and len(STEP.findall(out)) == 4
    assert re.search(r"\[[-\d.e]+, [-\d.e]+, \.\.\.\]", out)


def test_formula_and_summary():
    assert formula("Sum.\n\ny = a + b.\n\nArguments: a, b.") == \
        "Sum.\ny = a + b."
    assert formula("Cast.\n\nArguments: x = input.") == "Cast."
    assert summary(np.float32(2.5)) == "2.5"
    assert summary(np.array(7, np.int32)) == "int32[] = 7"
    text = summary(np.array([1.0, np.nan, 3.0]), count=2)
    assert text.startswith("float64[3] min nan") and "nan 1" in text
    assert text.endswith("[1, nan, ...]")
