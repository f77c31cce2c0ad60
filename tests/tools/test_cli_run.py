"""``refinfer run``'s options (issue 16, frictions 3 and 8)."""
import json

import numpy as np
import pytest
from helpers_tools import golden_file, run_cli

MLP = golden_file("mlp", "model.mindir")
MLP_INPUT = golden_file("mlp", "input_0.npy")
DYN = golden_file("dyn_mlp", "model.mindir")


def test_outputs_show_shape_and_dtype(capsys):
    """Friction 8: outputs showed neither shape nor dtype."""
    code, out, err = run_cli(capsys, "run", MLP, "--input", MLP_INPUT)
    assert code == 0 and err == ""          # files: no note on random inputs
    header = out.splitlines()[0]
    assert header.startswith("tensor's name is:") and "data size is:24 " in header
    assert header.endswith("tensor elements num is:6 shape is:[2, 3] "
                           "dtype is:float32")


def test_random_inputs_say_so_with_the_seed(capsys):
    """Friction 8: nothing said the inputs were random, nor the seed."""
    code, out, err = run_cli(capsys, "run", MLP, "--seed", "7")
    assert code == 0 and out.startswith("tensor's name is:")
    assert err.startswith("inputs: random, seed 7 (Lite benchmark's ranges")


def test_loop_count_threads_and_backend(capsys):
    """Friction 8: no timing or loop count, no thread count, no backend."""
    code, out, _ = run_cli(capsys, "run", MLP, "--input", MLP_INPUT,
                           "--loop-count", "3", "--threads", "1",
                           "--backend", "reference")
    assert code == 0
    last = out.splitlines()[-1]
    assert last.startswith("latency over 3 predict(s): min ")
    assert last.endswith("ms (reference backend, threads 1)")


def test_json_on_stdout(capsys):
    """Friction 8: no JSON output."""
    code, out, _ = run_cli(capsys, "run", MLP, "--input", MLP_INPUT, "--json",
                           "--loop-count", "2")
    assert code == 0
    report = json.loads(out)                # stdout holds the JSON only
    expected = np.load(golden_file("mlp", "output_0.npy"))
    [output] = report["outputs"]
    assert (output["shape"], output["dtype"]) == ([2, 3], "float32")
    np.testing.assert_allclose(output["first_values"], expected.ravel(),
                               rtol=1e-4, atol=1e-5)
    assert report["inputs"] == {"files": [MLP_INPUT]}
    assert report["latency_ms"]["loop_count"] == 2
    assert 0 < report["latency_ms"]["min"] <= report["latency_ms"]["max"]


def test_json_to_a_file_keeps_the_text(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "run", MLP, "--json", tmp_path / "r.json")
    assert code == 0 and out.startswith("tensor's name is:")
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["inputs"] == {"random": True, "seed": 0}
    assert report["latency_ms"] is None


# -- friction 3: .bin inputs of a dynamic-shape model -------------------------

@pytest.mark.parametrize("shapes", ["x:7,4", "7,4"])
def test_bin_input_of_a_dynamic_shape_model(capsys, tmp_path, shapes):
    """Friction 3: a .bin for a [-1, 4] input said it needs 0 bytes, and
    there was no --input-shapes (Lite's syntax, by name or in order)."""
    code, _, _ = run_cli(capsys, "run", DYN, "--input",
                         golden_file("dyn_mlp", "shape2_input_0.bin"),
                         "--input-shapes", shapes, "--output-dir", tmp_path)
    assert code == 0
    np.testing.assert_allclose(np.load(tmp_path / "output_0.npy"),
                               np.load(golden_file("dyn_mlp",
                                                   "shape2_output_0.npy")),
                               rtol=1e-4, atol=1e-5)


def test_random_inputs_of_a_dynamic_shape_model(capsys):
    code, out, _ = run_cli(capsys, "run", DYN, "--inputShapes", "x:5,4")
    assert code == 0 and "shape is:[5, 3] " in out


def test_bin_input_without_shapes_says_what_to_give(capsys):
    code, _, err = run_cli(capsys, "run", DYN, "--input",
                           golden_file("dyn_mlp", "shape2_input_0.bin"))
    assert code == 3 and "needs float32[-1, 4]" in err
    code, _, err = run_cli(capsys, "run", DYN)
    assert code == 3 and "give an input file or its shape (--input-shapes)" in err


@pytest.mark.parametrize("shapes, message", [
    ("y:7,4", "--input-shapes: no input named 'y'; the model's inputs are x"),
    ("7,4:1,4", "--input-shapes gives 2 shape(s); the model has 1 input(s) (x)"),
    ("x:7,4,1", "input 'x' has 2 dimension(s) [-1, 4], got [7, 4, 1]"),
    ("x:7,0", "expected NAME:D0,D1,...;NAME2:..."),
    ("x:seven", "expected NAME:D0,D1,...;NAME2:..."),
])
def test_bad_input_shapes_are_usage_errors(capsys, shapes, message):
    code, out, err = run_cli(capsys, "run", DYN, "--input-shapes", shapes)
    assert code == 2 and out == "" and message in err

