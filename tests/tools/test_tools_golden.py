"""``refinfer golden`` and comparing against what it wrote."""
import math
import os

import numpy as np
import pytest

from refinfer import __version__
from refinfer.tools import golden as tools_golden
from refinfer.tools import tensorio

from helpers_tools import (golden_file, golden_model, leftovers, read_json,
                           run_cli)

MLP = golden_file("mlp", "model.mindir")
MLP_INPUT = golden_file("mlp", "input_0.npy")


@pytest.fixture
def mlp_golden(tmp_path, capsys):
    out = tmp_path / "mlp"
    code, stdout, _ = run_cli(capsys, "golden", MLP, "--input", MLP_INPUT,
                              "--out", out)
    assert code == 0 and "1 output(s)" in stdout
    return out


def test_golden_writes_every_file(mlp_golden):
    assert sorted(os.listdir(mlp_golden)) == [
        "input_0.bin", "input_0.npy", "manifest.json", "output_0.bin",
        "output_0.npy", "outputs.txt"]
    expected = golden_model("mlp").run([np.load(MLP_INPUT)])[0]
    output = np.load(mlp_golden / "output_0.npy")
    assert output.tobytes() == expected.tobytes()
    assert (mlp_golden / "output_0.bin").read_bytes() == expected.tobytes()
    assert (mlp_golden / "input_0.bin").read_bytes() == \
        np.load(MLP_INPUT).tobytes()


def test_golden_manifest(mlp_golden):
    manifest = read_json(mlp_golden / "manifest.json")
    assert manifest["format"] == "refinfer-golden"
    assert manifest["refinfer_version"] == __version__
    assert manifest["model"] == os.path.abspath(MLP)
    assert manifest["seed"] is None
    assert manifest["inputs"] == [{
        "name": "x", "shape": [2, 4], "dtype": "float32",
        "file": "input_0.npy", "raw_file": "input_0.bin"}]
    assert manifest["outputs"] == [{
        "name": "Default/fc2-Dense/BiasAdd-op0", "shape": [2, 3],
        "dtype": "float32", "file": "output_0.npy",
        "raw_file": "output_0.bin"}]


def test_golden_calibration_file(mlp_golden):
    lines = (mlp_golden / "outputs.txt").read_text().splitlines()
    assert lines[0] == "Default/fc2-Dense/BiasAdd-op0 2 2 3"
    values = np.array(lines[1].split(), np.float32)
    np.testing.assert_array_equal(values,
                                  np.load(mlp_golden / "output_0.npy").ravel())
    assert len(lines) == 2


def test_compare_against_mindspore_output_passes(mlp_golden, capsys):
    code, out, _ = run_cli(capsys, "compare",
                           golden_file("mlp", "output_0.npy"), mlp_golden)
    assert code == 0
    assert "output_0 = Default/fc2-Dense/BiasAdd-op0" in out
    assert "1 passed, 0 failed" in out


def test_compare_against_perturbed_copy_fails(mlp_golden, tmp_path, capsys):
    e = np.load(mlp_golden / "output_0.npy")
    a = e.copy()
    a[0, 0] = 0.0             # error |e00|, relative error 1
    a[1, 1] = 2 * e[1, 1]     # error |e11|, relative error 1
    np.save(tmp_path / "output_0.npy", a)
    report_path = tmp_path / "report.json"
    code, out, _ = run_cli(capsys, "compare", mlp_golden,
                           tmp_path / "output_0.npy", "--json", report_path)
    assert code == 1 and "FAIL" in out
    (t,) = read_json(report_path)["tensors"]
    d0, d1 = abs(float(e[0, 0])), abs(float(e[1, 1]))
    assert t["name"] == "Default/fc2-Dense/BiasAdd-op0" and not t["passed"]
    assert t["mismatches"] == 2
    assert t["max_abs_err"] == max(d0, d1)
    assert t["mean_abs_err"] == pytest.approx((d0 + d1) / 6, rel=1e-12)
    assert t["rmse"] == pytest.approx(math.sqrt((d0**2 + d1**2) / 6))
    assert t["max_rel_err"] == 1.0
    assert t["within_1e-3"] == t["within_5e-3"] == pytest.approx(4 / 6)
    e64, a64 = e.astype(np.float64).ravel(), a.astype(np.float64).ravel()
    assert t["cosine"] == pytest.approx(
        e64 @ a64 / np.linalg.norm(e64) / np.linalg.norm(a64))
    assert t["mean_bias"] == pytest.approx(1.0)     # Lite: 100%
    assert (t["nan_expected"], t["nan_actual"]) == (0, 0)


def test_golden_with_random_inputs_is_seeded(tmp_path, capsys):
    for name in ("a", "b"):
        assert run_cli(capsys, "golden", MLP, "--seed", 5, "--out",
                       tmp_path / name)[0] == 0
    assert read_json(tmp_path / "a" / "manifest.json")["seed"] == 5
    code, out, _ = run_cli(capsys, "compare", tmp_path / "a", tmp_path / "b",
                           "--atol", 0, "--rtol", 0)
    assert code == 0 and "2 passed" in out


def test_golden_multi_output_and_calibration_compare(tmp_path, capsys):
    out = tmp_path / "g"
    model = golden_file("multi_output", "model.mindir")
    assert run_cli(capsys, "golden", model, "--out", out)[0] == 0
    calibration = tensorio.read_calibration(str(out / "outputs.txt"))
    names = [r.name for r in calibration]
    assert names == ["Default/relu-ReLU/ReLU-op0",
                     "Default/sigmoid-Sigmoid/Sigmoid-op0"]
    code, stdout, _ = run_cli(capsys, "compare", out / "outputs.txt", out,
                              "--atol", 0, "--rtol", 0)
    assert code == 0 and "2 tensor(s) compared" in stdout
    assert "only in ACTUAL (not compared): ['x']" in stdout


@pytest.mark.parametrize("inputs, message", [
    ([golden_file("lenet5", "input_0.npy")], "holds float32[1, 1, 32, 32]; input"),
    ([golden_file("lenet5", "input_0.bin")], "holds 4096 bytes"),
    (["missing.npy"], "does not exist"),
    ([MLP_INPUT, MLP_INPUT], "1 input(s), 2 file(s)"),
])
def test_bad_input_leaves_no_directory(tmp_path, capsys, inputs, message):
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, "golden", MLP, "--input", *inputs,
                           "--out", out)
    last = err.splitlines()[-1]     # (after any kernel compile lines)
    assert code == 3 and message in last and last.startswith("refinfer golden")
    assert not out.exists() and leftovers(tmp_path) == []


def test_failure_while_writing_leaves_no_directory(tmp_path, capsys,
                                                   monkeypatch):
    def disk_full(path, tensors):
        with open(path, "w") as f:
            f.write("half")
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(tools_golden, "write_calibration", disk_full)
    out = tmp_path / "out"
    code, _, err = run_cli(capsys, "golden", MLP, "--out", out)
    assert code == 3 and "No space left" in err
    assert os.listdir(tmp_path) == []


def test_existing_directory_is_kept_unless_forced(mlp_golden, capsys):
    (mlp_golden / "mine.txt").write_text("keep me")
    code, _, err = run_cli(capsys, "golden", MLP, "--out", mlp_golden)
    assert code == 3 and "already exists" in err
    assert (mlp_golden / "mine.txt").exists()
    assert run_cli(capsys, "golden", MLP, "--out", mlp_golden,
                   "--force")[0] == 0
    assert not (mlp_golden / "mine.txt").exists()
    assert leftovers(mlp_golden.parent) == []


def test_missing_model(tmp_path, capsys):
    code, _, err = run_cli(capsys, "golden", tmp_path / "no.mindir", "--out",
                           tmp_path / "out")
    assert code == 3 and "no such model file" in err
    assert not (tmp_path / "out").exists()
