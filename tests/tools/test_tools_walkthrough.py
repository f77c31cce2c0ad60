"""``refinfer explain`` and ``refinfer walk``."""
import io
import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from refinfer.tools.explain import explain
from refinfer.tools.walk import formula, summary, walk

from helpers_tools import (ROOT, golden_file, golden_input_files, golden_inputs,
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
        assert "h: help" in prompt and "q: quit" in prompt
        if not remaining:
            raise EOFError
        command = remaining.pop(0)
        if isinstance(command, type) and issubclass(command, BaseException):
            raise command
        return command
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


def walk_lenet(commands):
    out = io.StringIO()
    result = walk(golden_model("lenet5"), golden_inputs("lenet5"), out,
                  interactive=True, read=scripted(commands))
    return result, out.getvalue()


def test_walk_ctrl_c_at_the_prompt_quits_cleanly():
    """The report: Ctrl-C at the prompt printed a Python traceback."""
    result, text = walk_lenet(["", KeyboardInterrupt])
    assert result is None
    assert [int(s[0]) for s in STEP.findall(text)] == [0, 1]
    assert text.endswith("\ninterrupted after 2 node(s) shown\n")


def test_walk_help_lists_every_command():
    _, text = walk_lenet(["h", "q"])
    for command in ("Enter", "c PATTERN", "p NAME", "save NAME FILE",
                    "q, Ctrl-C"):
        assert f"\n  {command} " in text


def test_walk_prints_tensors_shown_so_far():
    _, text = walk_lenet(["", "p %0", "p conv1.weight", "p x",
                          "p Default/conv1-Conv2d/Conv2D-op0", "p %7", "q"])
    x = golden_inputs("lenet5")[0]
    weight = golden_model("lenet5").parameters()["conv1.weight"]
    assert f"\nconv1.weight: {summary(weight)}\n" in text
    assert f"\nx: {summary(x)}\n" in text
    lines = [line for line in text.splitlines() if line.startswith("%0: ")]
    assert len(lines) == 1 and lines[0].startswith("%0: float32[1,6,28,28] ")
    by_scope = text.split("Default/conv1-Conv2d/Conv2D-op0: ")[1]
    assert by_scope.splitlines()[0] == lines[0][len("%0: "):]
    assert "no tensor '%7' shown so far; this step has %0, " in text


def test_walk_saves_a_tensor_atomically(tmp_path):
    target = tmp_path / "relu.npy"
    _, text = walk_lenet(["", "", f"save %2 {target}", "q"])
    saved = np.load(target)
    assert saved.shape == (1, 6, 28, 28) and saved.dtype == np.float32
    assert saved.min() == 0.0            # %2 is the first ReLU's output
    assert f"saved %2 (float32[1,6,28,28]) to {target}" in text
    assert [p.name for p in tmp_path.iterdir()] == ["relu.npy"]


def test_walk_save_errors_keep_the_session(tmp_path):
    missing = tmp_path / "no_such_folder" / "x.npy"
    _, text = walk_lenet([f"save %0 {missing}", "save %9 x.npy", "p",
                          "save %0", ""])
    assert f"cannot save %0 to {missing}: " in text
    assert "no tensor '%9' shown so far" in text
    assert "unknown command 'p' (h: help)" in text
    assert "unknown command 'save %0' (h: help)" in text
    assert [int(s[0]) for s in STEP.findall(text)] == [0, 1]
    assert not (tmp_path / "no_such_folder").exists()


def test_walk_saves_tuple_elements_by_name(tmp_path):
    """A tuple output is not one tensor: save names its elements."""
    out = io.StringIO()
    target = tmp_path / "second.npy"
    walk(golden_model("multi_output"), golden_inputs("multi_output"), out,
         interactive=True, read=scripted(
             ["c MakeTuple", f"save %4 {tmp_path / 'no.npy'}",
              f"save Default/MakeTuple-op0:1 {target}", "q"]))
    text = out.getvalue()
    assert "%4 is not one tensor; save its tensors by name (this step has " \
        "%2, %3, %4, Default/MakeTuple-op0, " in text
    assert not (tmp_path / "no.npy").exists()
    sigmoid = 1 / (1 + np.exp(-golden_inputs("multi_output")[0]))
    np.testing.assert_allclose(np.load(target), sigmoid, rtol=1e-6)


def test_walk_cli_ctrl_c_has_no_traceback(capsys, monkeypatch):
    """Ctrl-C at the prompt ends the command with status 0; Ctrl-C while
    the model runs ends it with 130; neither prints a traceback."""
    def interrupt(prompt):
        raise KeyboardInterrupt
    monkeypatch.setattr("builtins.input", interrupt)
    code, out, err = run_cli(capsys, "walk", LENET, "--interactive")
    assert code == 0 and err == ""
    assert out.endswith("interrupted after 1 node(s) shown\n")
    monkeypatch.setattr("refinfer.cli.walk.walk", lambda *a: interrupt(""))
    code, out, err = run_cli(capsys, "walk", LENET)
    assert code == 130 and err == "\nrefinfer walk: interrupted\n"


@pytest.mark.slow
def test_walk_sigint_in_a_real_terminal_session():
    """The original report: a real SIGINT at the prompt of
    ``refinfer walk --interactive`` printed a traceback."""
    job = subprocess.Popen(
        [sys.executable, "-m", "refinfer", "walk", LENET, "--interactive"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": ROOT}, cwd=ROOT,
        # a shell's background job ignores SIGINT, and so would the walk
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    shown, deadline = b"", time.monotonic() + 120
    while not shown.endswith(b"q: quit) > ") and time.monotonic() < deadline:
        chunk = os.read(job.stdout.fileno(), 4096)
        if not chunk:
            break
        shown += chunk
    job.send_signal(signal.SIGINT)
    job.wait(timeout=60)    # before communicate closes stdin: EOF would
    out, err = job.communicate()    # stop the walk before the signal does
    text = (shown + out).decode()
    assert job.returncode == 0, err.decode()
    assert "Traceback" not in err.decode() and err == b""
    assert text.endswith("interrupted after 1 node(s) shown\n")


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
