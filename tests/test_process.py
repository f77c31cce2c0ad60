"""What refinfer changes in the host process (refinfer/process.py): nothing at
import, malloc's thresholds once a model is built unless ``[refinfer]
process_tuning=off``, never ``os.environ`` nor thread affinity unless the
Context asks for it. Each check runs in a fresh process.

malloc's settings cannot be read back, so they are observed: a 24 MiB block
comes from a fresh mapping under glibc's defaults and from the heap once
refinfer raised the mmap threshold to 32 MiB; freed at the top of the heap,
it stays there only under refinfer's 1 GiB trim threshold.
"""
import json
import os
import platform
import subprocess
import sys
import threading

import pytest

import refinfer as mslite
from refinfer.runtime import LoadedModel

from golden_cases import golden_case

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MLP = golden_case("mlp").model_path

CHILD = """
import ctypes, json, os, sys

class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                 "fsmblks", "uordblks", "fordblks", "keepcost")]

libc = ctypes.CDLL(None)
libc.mallinfo2.restype = MallInfo2
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
BLOCK = 24 << 20

def affinities():
    return sorted({tuple(sorted(os.sched_getaffinity(int(task))))
                   for task in os.listdir("/proc/self/task")})

def malloc_tuned():
    before = libc.mallinfo2().hblkhd
    block = libc.malloc(BLOCK)
    mapped = libc.mallinfo2().hblkhd - before >= BLOCK
    libc.free(block)
    return {"heap": not mapped, "kept": libc.mallinfo2().keepcost >= BLOCK}

environ, affinity = dict(os.environ), affinities()
action, model = sys.argv[1], sys.argv[2]
import refinfer
if action != "import":
    refinfer.Model
if action.startswith("build"):
    config = {"refinfer": {"process_tuning": action.split(":")[1]}}
    refinfer.Model().build_from_file(model, refinfer.ModelType.MINDIR,
                                     config_dict=config)
print(json.dumps({
    "environ": os.environ == environ, "affinity": affinities() == affinity,
    "numpy": "numpy" in sys.modules, "malloc": malloc_tuned()}))
"""

UNTOUCHED = {"heap": False, "kept": False}
TUNED = {"heap": True, "kept": True}

pytestmark = [pytest.mark.slow,    # fresh processes
              pytest.mark.skipif(platform.libc_ver()[0] != "glibc",
                                 reason="malloc tuning is glibc's")]


def in_fresh_process(action: str) -> dict:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    environ.pop("GLIBC_TUNABLES", None)
    done = subprocess.run([sys.executable, "-c", CHILD, action, MLP], env=environ,
                          capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(done.stdout.splitlines()[-1])


def test_import_refinfer_loads_nothing_and_changes_nothing():
    seen = in_fresh_process("import")
    assert not seen["numpy"]      # the launcher sets OPENBLAS_CORETYPE before
    assert seen["environ"] and seen["affinity"]
    assert seen["malloc"] == UNTOUCHED


def test_loading_the_api_changes_nothing():
    seen = in_fresh_process("api")
    assert seen["numpy"]
    assert seen["environ"] and seen["affinity"]
    assert seen["malloc"] == UNTOUCHED


def test_a_model_built_with_process_tuning_off_changes_nothing():
    seen = in_fresh_process("build:off")
    assert seen["environ"] and seen["affinity"]
    assert seen["malloc"] == UNTOUCHED


def test_a_model_built_by_default_tunes_malloc_and_nothing_else():
    seen = in_fresh_process("build:on")
    assert seen["environ"] and seen["affinity"]
    assert seen["malloc"] == TUNED


def test_process_tuning_takes_on_or_off():
    config = {"refinfer": {"process_tuning": "sometimes"}}
    refused = "process_tuning='sometimes': expected on or off"
    with pytest.raises(RuntimeError, match=refused):
        mslite.Model().build_from_file(MLP, mslite.ModelType.MINDIR, config_dict=config)


# Prints the kernels' cache folder, Numba's and whether the environment names one.
CACHE_FOLDERS = ("import os, numba; from refinfer import jit; print(jit.CACHE_DIR, "
                 "numba.config.CACHE_DIR, 'NUMBA_CACHE_DIR' in os.environ, flush=True)")
# The same in this process, then in a child process that inherits its environment.
AND_IN_A_CHILD = CACHE_FOLDERS + ("; import subprocess, sys; "
                                  "subprocess.run([sys.executable, '-c', sys.argv[1]])")


def test_worker_processes_find_the_same_numba_cache_folder():
    """Nothing goes into the environment: a child process computes the same
    folder from what it inherits."""
    lines = subprocess.run([sys.executable, "-c", AND_IN_A_CHILD, CACHE_FOLDERS],
                           capture_output=True, text=True, check=True,
                           cwd=ROOT).stdout.splitlines()
    here, child = lines[0].split(), lines[1].split()
    assert here[0] and here == child
    assert here[1] == here[0] and here[2] == "False"


def test_each_model_has_its_own_swap_lock():
    one, two = LoadedModel(MLP), LoadedModel(MLP)
    assert isinstance(one._swap_lock, type(threading.Lock()))
    assert one._swap_lock is not two._swap_lock
