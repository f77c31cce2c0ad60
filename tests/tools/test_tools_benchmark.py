"""``refinfer benchmark``: MindSpore Lite's benchmark tool, flag for flag
(issue 16 §1)."""
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from helpers_tools import (ROOT, golden_file, golden_meta, golden_model,
                           golden_outputs, run_cli)

from refinfer.api.debug import CallBackParam
from refinfer.tools.benchmark import TimeProfile, check_accuracy
from refinfer.tools.tensorio import write_calibration

LENET = golden_file("lenet5", "model.mindir")
LENET_BIN = golden_file("lenet5", "input_0.bin")
FAST = ["--loopCount=2", "--warmUpLoopCount=1"]


def calibration(tmp_path, case: str, scale: float = 1.0) -> str:
    """A Lite calibration file of the case's MindSpore outputs (times
    ``scale``), named as the model names its outputs."""
    names = [spec.name for spec in golden_model(case).outputs]
    arrays = [a * np.float32(scale) for a in golden_outputs(case)]
    path = str(tmp_path / f"{case}_{scale}.txt")
    write_calibration(path, list(zip(names, arrays)))
    return path


def test_lite_lines_with_calibration_and_time_profiling(capsys, tmp_path):
    code, out, err = run_cli(capsys, "benchmark", f"--modelFile={LENET}",
                             f"--inDataFile={LENET_BIN}", *FAST,
                             f"--benchmarkDataFile={calibration(tmp_path, 'lenet5')}",
                             "--timeProfiling=true")
    assert code == 0 and err == ""
    lines = out.splitlines()
    for expected in ["ModelPath = " + LENET, "LoopCount = 2", "NumThreads = 2",
                     "AccuracyThreshold = 0.5", "cpuBindMode = HIGHER_CPU",
                     "CalibDataType = FLOAT", "MarkAccuracy",
                     "Running benchmark loops...",
                     "Run Benchmark model.mindir Success."]:
        assert expected in lines
    assert lines[-1] == "Run Benchmark model.mindir Success."
    assert any(line.startswith("Data of node ") for line in lines)
    [bias] = [line for line in lines if line.startswith("Mean bias of all")]
    assert 0 <= float(bias.split(": ")[1].rstrip("%")) < 0.01   # float32 rounding
    assert "inputs: random" not in out
    # The profile: one row per kernel by name (Lite's order), then per type.
    rules = [k for k, line in enumerate(lines) if line == "-" * 73]
    assert len(rules) == 2
    by_name = lines[rules[0] + 1:rules[1]]
    model_at = next(k for k, line in enumerate(lines) if line.startswith("Model = "))
    by_type = lines[rules[1] + 1:model_at]
    assert by_name[0].split() == ["opName", "avg(ms)", "percent", "calledTimes",
                                  "opTotalTime"]
    names = [row.split("\t")[0].strip() for row in by_name[1:]]
    assert len(names) == 17 and names == sorted(names)
    types = {row.split()[0]: row.split() for row in by_type[1:]}
    assert types["Conv2D"][3] == "4"        # 2 convolutions x 2 loops
    assert sum(float(row[2]) for row in types.values()) == pytest.approx(1, abs=1e-4)
    assert lines[model_at].startswith("Model = model.mindir, NumThreads = 2, "
                                 "MinRunTime = ")


def test_accuracy_failure_exits_1(capsys, tmp_path):
    code, out, err = run_cli(capsys, "benchmark", f"--modelFile={LENET}",
                             f"--inDataFile={LENET_BIN}", *FAST,
                             f"--benchmarkDataFile={calibration(tmp_path, 'lenet5', 1.5)}")
    assert code == 1       # |1.5 y - y| / |1.5 y| = 1/3, up to float32 rounding
    bias = re.search(r"^Mean bias of all nodes/tensors: (\d+\.\d{4})%$", out, re.M)
    assert bias and float(bias[1]) == pytest.approx(100 / 3, abs=2e-4), out
    assert f"Mean bias of all nodes/tensors is too big: {bias[1]}% (threshold " \
        "0.5%)" in err
    assert err.splitlines()[-1] == "Run Benchmark model.mindir Failed : accuracy"
    code, _, _ = run_cli(capsys, "benchmark", f"--modelFile={LENET}",
                         f"--inDataFile={LENET_BIN}", *FAST,
                         f"--benchmarkDataFile={calibration(tmp_path, 'lenet5', 1.5)}",
                         "--accuracyThreshold=40")
    assert code == 0


def test_cosine_threshold(capsys, tmp_path):
    calib = calibration(tmp_path, "lenet5", -1.0)      # cosine -1
    code, out, err = run_cli(capsys, "benchmark", f"--modelFile={LENET}",
                             f"--inDataFile={LENET_BIN}", *FAST,
                             f"--benchmarkDataFile={calib}",
                             "--accuracyThreshold=1000",
                             "--cosineDistanceThreshold=0.9")
    assert code == 1 and "Cosine distance of all nodes/tensors: -0.99999" in out
    assert "cosine distance of all nodes/tensors is too small: -0.99999" in err


def test_calibration_of_another_model_is_a_clear_error(capsys, tmp_path):
    path = str(tmp_path / "c.txt")
    write_calibration(path, [("no_such_output", np.zeros((1, 10), np.float32))])
    code, _, err = run_cli(capsys, "benchmark", f"--modelFile={LENET}", *FAST,
                           f"--benchmarkDataFile={path}")
    assert code == 3
    assert f"{path}: tensor 'no_such_output' is not an output of the model" in err


def test_random_inputs_json_and_pythonic_spellings(capsys):
    code, out, _ = run_cli(capsys, "benchmark", "--model-file", LENET,
                           "--loop-count", "3", "--warm-up-loop-count", "0",
                           "--num-threads", "1", "--seed", "5", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["inputs"] == {"random": True, "seed": 5}
    assert report["threads"] == 1 and report["passed"] is True
    latency = report["latency_ms"]
    assert latency["loop_count"] == 3 and 0 < latency["min"] <= latency["avg"] \
        <= latency["max"]


def test_random_inputs_are_said_with_the_seed(capsys):
    code, out, _ = run_cli(capsys, "benchmark", f"--modelFile={LENET}", *FAST)
    assert code == 0 and "inputs: random, seed 0 (Lite benchmark's ranges" in out


def test_parallel_predict(capsys):
    code, out, _ = run_cli(capsys, "benchmark", f"--modelFile={LENET}",
                           "--enableParallelPredict=true", "--workersNum=2",
                           "--parallelNum=2", "--parallelTaskNum=3",
                           "--warmUpLoopCount=1", "--numThreads=1")
    assert code == 0
    lines = out.splitlines()
    tasks = [line for line in lines if line.startswith("parallel index: ")]
    assert len(tasks) == 6 and "parallel index: 1 | task index: 2 | predict " \
        "time: " in out
    assert any(line.startswith("warm up index: 0 | time: ") for line in lines)
    assert lines[-1] == "Run Benchmark model.mindir Success."


def test_encrypted_model(capsys):
    meta = golden_meta("encrypted")
    model = golden_file("encrypted", "model.mindir")
    code, out, _ = run_cli(capsys, "benchmark", f"--modelFile={model}", *FAST,
                           f"--decryptKey={meta['enc_key']}",
                           f"--dec-mode={meta['enc_mode']}")
    assert code == 0 and out.endswith("Success.\n")
    code, _, err = run_cli(capsys, "benchmark", f"--modelFile={model}", *FAST)
    assert code == 3 and "Traceback" not in err


def test_dynamic_shape_model_with_input_shapes(capsys, tmp_path):
    """Friction 3 through benchmark: Lite's --inputShapes for .bin inputs."""
    code, out, _ = run_cli(capsys, "benchmark",
                           f"--modelFile={golden_file('dyn_mlp', 'model.mindir')}",
                           "--inDataFile=" + golden_file("dyn_mlp", "shape2_input_0.bin"),
                           "--inputShapes=7,4", *FAST)
    assert code == 0 and out.endswith("Success.\n")


def test_time_profile_table():
    """Per-kernel times add up by name and by op type."""
    profile = TimeProfile()
    for name, kind in (("a", "Conv2D"), ("b", "Conv2D"), ("c", "ReLU")):
        param = CallBackParam(name, kind, 0)
        profile.before([], [], param)
        profile.after([], [], param)
    rows = profile.rows(by_type=True, loop_count=1)
    assert [(r["name"], r["called_times"]) for r in rows] == [("Conv2D", 2),
                                                             ("ReLU", 1)]
    assert sum(r["percent"] for r in rows) == pytest.approx(1)
    table = profile.lite_table(by_type=True, loop_count=1).splitlines()
    assert table[1].startswith("opType") and table[2].startswith("Conv2D    \t")


def test_check_accuracy_mean_bias(tmp_path):
    """Lite's rule: the mean error over the failing elements, in percent."""
    path = str(tmp_path / "c.txt")
    write_calibration(path, [("y", np.array([1.0, 2.0, 3.0], np.float32))])
    accuracy = check_accuracy({"y": np.array([1.0, 2.2, 3.0], np.float32)},
                              path, threshold=0.5, cosine_threshold=-1.1)
    # One element of three is off by 10 %: Lite's mean bias is 10 %.
    assert accuracy.mean_bias_percent == pytest.approx(10, rel=1e-5)
    assert not accuracy.passed and "too big: 10%" in accuracy.failure()
    with pytest.raises(ValueError, match=r"'y' has shape \[3\], the model's "
                       r"output has \[1, 3\]"):
        check_accuracy({"y": np.ones((1, 3), np.float32)}, path, 0.5, -1.1)


@pytest.mark.slow
def test_lite_ci_script_runs_unchanged_on_mobilenet_v2(tmp_path):
    """Done-when of issue 16 §1: a CI job written for Lite's benchmark
    (examples/benchmark/lite_ci.sh) runs with only the command changed."""
    script = os.path.join(ROOT, "examples", "benchmark", "lite_ci.sh")
    calib = calibration(tmp_path, "mobilenetv2")
    env = {**os.environ, "BENCHMARK": f"{sys.executable} -m refinfer benchmark",
           "PYTHONPATH": ROOT}
    result = subprocess.run(
        ["sh", script, golden_file("mobilenetv2", "model.mindir"),
         golden_file("mobilenetv2", "input_0.bin"), calib, str(tmp_path)],
        env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    log = (tmp_path / "benchmark.log").read_text()
    assert "Run Benchmark model.mindir Success." in log
    assert "opType" in log and "Conv2D" in log
    assert result.stdout.startswith("model.mindir: accuracy ok, avg ")
