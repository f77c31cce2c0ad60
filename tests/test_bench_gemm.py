"""tools/bench_gemm.py checks every candidate's product against float64
NumPy before it times it: refinfer's own products (their packing and edge
tiles included) on shapes that are no multiple of their tiles, the
channels-as-lanes product (on AVX-512 CPUs) in both its tiles (30 and 3100
columns); a shape it does not take shows '-'. Its speed
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
         "7x5x30,13x300x50,4x24x24,9x600x3100,3x8x5", "--markdown",
         str(report)],
        cwd=os.path.join(ROOT, "tools"), capture_output=True, text=True,
        timeout=600, env={**os.environ, "PYTHONPATH": ROOT})
    assert done.returncode == 0, done.stderr[-3000:]
    lines = report.read_text().splitlines()
    header = next(line for line in lines if line.startswith("| M x K x N"))
    names = header.strip("| ").split(" | ")[1:]
    rows = [line for line in lines if line.startswith("| ") and line[2].isdigit()]
    assert [row.split(" | ")[0] for row in rows] == [
        "| 7 x 5 x 30", "| 13 x 300 x 50", "| 4 x 24 x 24", "| 9 x 600 x 3100",
        "| 3 x 8 x 5"]
    for row in rows:
        cells = dict(zip(names, row.strip("| ").split(" | ")[1:]))
        narrow = row.startswith("| 3 x 8 x 5")
        for name, cell in cells.items():
            if narrow and name.startswith("lanes"):
                assert cell == "-", row
            else:
                assert float(cell) > 0, row


def test_bad_shapes_are_a_usage_error():
    done = subprocess.run(
        [sys.executable, "bench_gemm.py", "--shapes", "64x576"],
        cwd=os.path.join(ROOT, "tools"), capture_output=True, text=True,
        timeout=120, env={**os.environ, "PYTHONPATH": ROOT})
    assert done.returncode == 2
    assert "not M x K x N triples: '64x576'" in done.stderr
