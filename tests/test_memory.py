"""Activation memory (refinfer/process.py): once a model is built, a steady
run of predict-like allocations faults no page in; with the user's own malloc
settings refinfer leaves malloc alone (and the same allocations fault)."""
import os
import platform
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "golden", "lenet5", "model.mindir")

# Twelve 2 MiB tensors alive at once, then freed, five times over: what a
# predict of the transformer block does. Prints whether refinfer tuned malloc
# and the page faults per repetition after the first.
SCRIPT = f"""
import resource
import numpy as np
from refinfer import process
from refinfer.runtime import LoadedModel

LoadedModel({MODEL!r})

def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt

def predict_like():
    tensors = [np.ones(1 << 19, np.float32) for _ in range(12)]
    del tensors

predict_like()
before = faults()
for _ in range(5):
    predict_like()
print(process.keep_freed_memory(), (faults() - before) / 5)
"""

pytestmark = [pytest.mark.slow,    # fresh processes
              pytest.mark.skipif(platform.libc_ver()[0] != "glibc",
                                 reason="malloc tuning is glibc's")]


def run(**env) -> tuple[bool, float]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    environ.pop("GLIBC_TUNABLES", None)
    out = subprocess.run([sys.executable, "-c", SCRIPT], env={**environ, **env},
                         capture_output=True, text=True, check=True, cwd=ROOT)
    kept, faults = out.stdout.split()
    return kept == "True", float(faults)


def test_building_a_model_keeps_freed_memory_for_the_next_predict():
    kept, faults = run()
    assert kept
    assert faults < 50      # 12 x 512 pages would fault in without it


@pytest.mark.parametrize("env", [{"MALLOC_TOP_PAD_": "0"},
                                 {"GLIBC_TUNABLES": "glibc.malloc.trim_threshold=131072"}],
                         ids=["MALLOC_TOP_PAD_", "GLIBC_TUNABLES"])
def test_the_users_own_malloc_settings_win(env):
    kept, faults = run(**env)
    assert not kept
    assert faults > 12 * 512 * 0.9   # every tensor faults in again
