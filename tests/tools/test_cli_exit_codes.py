"""Exit status of every subcommand (issue 16, friction 10: usage errors and
model errors both exited 2). 0 done, 1 a check failed, 2 usage error,
3 model or data error, 130 interrupted (refinfer/cli/__init__.py)."""
import numpy as np
import pytest
from helpers_tools import golden_file, run_cli

from refinfer import __version__
from refinfer.cli import run as cli_run

LENET = golden_file("lenet5", "model.mindir")
MISSING = "no/such/model.mindir"

# Each subcommand with a model that does not exist (its other arguments right).
MODEL_ERRORS = {
    "run": ["run", MISSING],
    "benchmark": ["benchmark", f"--modelFile={MISSING}"],
    "info": ["info", MISSING],
    "golden": ["golden", MISSING, "--out", "unused_out"],
    "dump": ["dump", MISSING, "--out", "unused_out"],
    "bisect": ["bisect", MISSING, "--against", "float64"],
    "explain": ["explain", MISSING],
    "walk": ["walk", MISSING],
    "graph": ["graph", MISSING, "-o", "unused.html"],
    "warmup": ["warmup", MISSING],
    "compare": ["compare", "no/such/a.npy", "no/such/b.npy"],
}


@pytest.mark.parametrize("argv", MODEL_ERRORS.values(), ids=MODEL_ERRORS)
def test_a_missing_file_is_a_model_error(capsys, argv):
    code, out, err = run_cli(capsys, *argv)
    assert code == 3
    # benchmark prints its settings first, as Lite's does; nothing else more
    assert out == "" if argv[0] != "benchmark" else "PrepareTime" not in out
    assert err.startswith(f"refinfer {argv[0]}: error: ") and "Traceback" not in err


@pytest.mark.parametrize("argv", MODEL_ERRORS.values(), ids=MODEL_ERRORS)
def test_an_unknown_option_is_a_usage_error(capsys, argv):
    code, out, err = run_cli(capsys, *argv, "--no-such-option")
    assert code == 2 and out == ""
    assert "unrecognized arguments: --no-such-option" in err


@pytest.mark.parametrize("argv, message", [
    ([], "the following arguments are required: COMMAND"),
    (["nonsense"], "invalid choice: 'nonsense'"),
    (["run"], "the following arguments are required: model"),
    (["run", LENET, "--loop-count", "0"], "--loop-count 0: expected 1 or more"),
    (["run", LENET, "--threads", "-1"], "--threads -1: expected 0"),
    (["run", LENET, "--backend", "cuda"], "invalid choice: 'cuda'"),
    (["run", LENET, "--ranks", "2"], "--ranks N goes with --distributed"),
    (["dump", LENET, "--out", "unused_out", "--nodes", "re:("],
     "bad regular expression"),
    (["benchmark", f"--modelFile={LENET}", "--device=GPU"],
     "GPU target not available yet"),
    (["benchmark", f"--modelFile={LENET}", "--loopCount=0"],
     "--loopCount 0: must be 1 or more"),
    (["benchmark", f"--modelFile={LENET}", "--timeProfiling=maybe"],
     "expected true or false, got 'maybe'"),
    (["benchmark", f"--modelFile={LENET}", "--modelType=MindIR_Lite"],
     "MindIR_Lite (.ms) files need MindSpore Lite"),
])
def test_usage_errors_exit_2(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and message in err


def test_a_model_that_fails_on_its_inputs_is_a_model_error(capsys):
    code, out, err = run_cli(capsys, "run", LENET, "--input",
                             golden_file("mlp", "input_0.npy"))
    assert code == 3 and out == ""
    # (the last line: a cold kernel cache prints the compile lines first)
    last = err.splitlines()[-1]
    assert last.startswith("refinfer run: error: ") and "Traceback" not in err


def test_a_failed_check_exits_1(capsys, tmp_path):
    np.save(tmp_path / "e.npy", np.array([1.0, 2.0], np.float32))
    np.save(tmp_path / "a.npy", np.array([1.0, 3.0], np.float32))
    assert run_cli(capsys, "compare", tmp_path / "e.npy", tmp_path / "e.npy")[0] == 0
    code, out, _ = run_cli(capsys, "compare", tmp_path / "e.npy", tmp_path / "a.npy")
    assert code == 1 and "FAIL" in out


def test_interrupted_exits_130(capsys, monkeypatch):
    def interrupted(args):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli_run, "command", interrupted)
    code, out, err = run_cli(capsys, "run", LENET)
    assert code == 130 and err == "refinfer run: interrupted\n"


@pytest.mark.parametrize("argv", [["--version"], ["run", "--version"]])
def test_version(capsys, argv):
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0 and out == f"refinfer {__version__}\n"
