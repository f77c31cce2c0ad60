"""Static checks over the whole checkout (pyproject.toml's [tool.ruff]):
no unused imports or names, no undefined names, no mutable default
arguments, no import below a module's top. Dead code is a defect here; ruff finds it in under a second."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_ruff_finds_nothing():
    job = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert job.returncode == 0, job.stdout + job.stderr
