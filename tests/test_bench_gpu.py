"""tools/bench.py --target gpu: a clear "no GPU" error without one, and a
smoke run under numba's CUDA simulator on a golden MLP (one round) that
fills the table's refinfer column and says why ONNX Runtime's CUDA
provider, PyTorch and a batch that was not exported are missing. In
subprocesses: numba's CUDA simulator is chosen per process."""
import os
import subprocess
import sys

import pytest

from golden_cases import as_bench_model

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "tools", "bench.py")


def _bench(*args, env=None):
    return subprocess.run([sys.executable, BENCH, *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=600,
                          env={**os.environ, "PYTHONPATH": ROOT, **(env or {})})


def test_the_gpu_target_without_a_gpu_is_a_clear_error():
    done = _bench("--target", "gpu", env={"NUMBA_ENABLE_CUDASIM": "1"})
    assert done.returncode == 2
    assert "bench.py: error: no GPU: NUMBA_ENABLE_CUDASIM is set" in done.stderr
    assert "--simulator" in done.stderr


def test_the_simulator_flag_needs_the_gpu_target():
    done = _bench("--simulator")
    assert done.returncode == 2
    assert "--simulator goes with --target gpu" in done.stderr


@pytest.mark.slow
def test_a_simulated_gpu_run_on_a_small_model(tmp_path):
    as_bench_model("mlp", tmp_path, "2")
    report = tmp_path / "report.md"
    done = _bench("--target", "gpu", "--simulator", "--models", "mlp",
                  "--batches", "2,32", "--rounds", "1", "--markdown", str(report),
                  env={"REFINFER_BENCH_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-2000:]
    text = report.read_text()
    assert "Target gpu: numba's CUDA simulator" in text
    row = next(line for line in text.splitlines() if line.startswith("| mlp | 2 | 1 |"))
    refinfer_ms = row.split("|")[4].strip()
    assert float(refinfer_ms) > 0, row
    assert "torch: not measured" in text
    ort_ms = row.split("|")[5].strip()
    assert (ort_ms == "-") == ("ort: no CUDAExecutionProvider" in text), text
    assert "mlp b32 t1: all skipped: batch 32 is not exported (batches ['2'])" in text
