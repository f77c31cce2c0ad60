"""tools/bench_gemm.py checks every candidate's product against float64
NumPy before it times it: refinfer's own product (its packing and edge
tiles included) on shapes that are no multiple of its tiles. Its speed
comes from running the tool."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.slow
def test_every_candidate_is_checked_then_timed(tmp_path):
    report = tmp_path / "gemm.md"
    done = subprocess.run(
        [sys.executable, "bench_gemm.py", "--repeat", "1", "--shapes",
         "7x5x30,13x300x50,4x24x24,9x600x3100", "--markdown", str(report)],
        cwd=os.path.join(ROOT, "tools"), capture_output=True, text=True,
        timeout=600, env={**os.environ, "PYTHONPATH": ROOT})
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [line for line in report.read_text().splitlines()
            if line.startswith("| ") and line[2].isdigit()]
    assert [row.split(" | ")[0] for row in rows] == [
        "| 7 x 5 x 30", "| 13 x 300 x 50", "| 4 x 24 x 24", "| 9 x 600 x 3100"]
    for row in rows:
        rates = [float(cell) for cell in row.strip("| ").split(" | ")[1:]]
        assert all(rate > 0 for rate in rates), row


def test_bad_shapes_are_a_usage_error():
    done = subprocess.run(
        [sys.executable, "bench_gemm.py", "--shapes", "64x576"],
        cwd=os.path.join(ROOT, "tools"), capture_output=True, text=True,
        timeout=120, env={**os.environ, "PYTHONPATH": ROOT})
    assert done.returncode == 2
    assert "not M x K x N triples: '64x576'" in done.stderr
