"""Process-wide effects: everything refinfer changes in the host process, in
one place, and none of it at import.

``import refinfer`` (and loading its API) writes nothing to ``os.environ``,
pins no thread and leaves malloc alone. What a model's build may change, and
when:

- **malloc thresholds** (:func:`keep_freed_memory`, glibc only): applied once
  a model is built, a documented default that the config entry
  ``[refinfer] process_tuning=off`` turns off;
- **thread affinity** (:func:`pin_threads`): only where the Context asks for
  it (``context.cpu.thread_affinity_core_list``);
- **BLAS thread count** (:func:`set_blas_threads`): what
  ``context.cpu.thread_num`` asks for, applied by every predict
  (refinfer/threads.py);
- **Numba's cache folder** (:func:`numba_cache_dir`): refinfer/jit.py sets
  it in Numba's own configuration (``numba.config.CACHE_DIR``) when the
  kernels load, never in the environment. A worker process (multiprocessing,
  an mpirun rank) computes the same folder from what it inherits: the user's
  ``NUMBA_CACHE_DIR`` or ``XDG_CACHE_HOME`` and the same kernel sources.

refinfer's worker pool (refinfer/threads.py) starts its threads at the first
run that splits work, and only then asks to be replaced in forked children.

Memory between predicts. A predict allocates its intermediate tensors
through NumPy, that is through the C library's malloc, and the plan frees
each after its last use. glibc's malloc serves blocks over 128 KiB with fresh
mappings and trims its heap when enough is free at its top, with both
thresholds adjusted on the fly from the history of frees. So, depending on
that history, a steady predict may get its large buffers back as fresh
pages, each zero-filled on first touch by a page fault: about 3 us per 4 KiB
page on the project's VM, 1.6 ms for a 2 MiB tensor, more than the op that
fills it. Measured on the transformer block x [1, 256, 512]
(tools/bench_distributed.py's case): 0 or 2,000 faults per predict from one
process to the next, the slow runs 15-20% slower. ONNX Runtime keeps an
arena for the same reason.

:func:`keep_freed_memory` fixes both thresholds once per process: blocks up
to 32 MiB (glibc's largest setting) come from the heap, and the heap is
trimmed only past 1 GiB free at its top, so a steady predict faults no page
in. The process keeps its peak activation memory between predicts instead of
returning it (its peak resident memory is the same). It is called once a
model is built, not before: the build's own temporaries (the file's bytes,
compiler data) would then stay in the heap and fragment it; applied before
the build, MobileNetV2's peak RSS grew from 188 to 261 MB. Nothing is changed
where the C library is not glibc, or where the environment already sets
these thresholds (``MALLOC_MMAP_THRESHOLD_`` and the like, or
``glibc.malloc`` entries in ``GLIBC_TUNABLES``): the user's own choice wins.

Numba's cache folder. Numba caches next to the source file by default, which
fails in a read-only site-packages. refinfer caches under the user's
``NUMBA_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/refinfer/numba``
(``~/.cache/refinfer/numba``), falling back to a temporary folder when that
is not writable; in a sub-folder named by a digest of the kernel sources
(:func:`sources_key`). Numba checks a cached kernel against its own source
file only, not against the helpers it compiled in from other files
(``ops/_kernels/program.py`` ...): after an upgrade, a cache made from other
sources would silently run old code.

This module imports neither NumPy nor Numba: refinfer/jit.py asks it for the
cache folder before Numba loads.
"""
from __future__ import annotations

import ctypes
import functools
import glob
import hashlib
import importlib.util
import os
import platform
import tempfile
import threading

# -- malloc ----------------------------------------------------------------------
M_TRIM_THRESHOLD = -1           # <malloc.h> parameter numbers
M_MMAP_THRESHOLD = -3
HEAP_UP_TO = 32 << 20           # glibc refuses larger mmap thresholds
TRIM_PAST = 1 << 30
USER_MALLOC_SETTINGS = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_",
                        "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_")


@functools.cache
def keep_freed_memory() -> bool:
    """Tune glibc's malloc once per process (see the module's text); True
    when the tuning is in effect. Two threads racing here both set the same
    values, which is harmless."""
    return not _user_tunes_malloc() and _mallopt_all()


def _user_tunes_malloc() -> bool:
    return any(name in os.environ for name in USER_MALLOC_SETTINGS) \
        or "glibc.malloc." in os.environ.get("GLIBC_TUNABLES", "")


def _mallopt_all() -> bool:
    if platform.libc_ver()[0] != "glibc":
        return False
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    if mallopt is None:
        return False
    return all(mallopt(param, value) == 1 for param, value in
               ((M_MMAP_THRESHOLD, HEAP_UP_TO), (M_TRIM_THRESHOLD, TRIM_PAST)))


# -- thread affinity -------------------------------------------------------------
def available_cores() -> list[int]:
    """The cores this process may run on."""
    return sorted(os.sched_getaffinity(0))


def pin_threads(cores: tuple[int, ...]) -> None:
    """Pin the calling thread, then every other thread of the process (the
    pool and BLAS threads included); threads started later inherit it."""
    bad = [c for c in cores if not 0 <= c < (os.cpu_count() or 1)]
    if bad:
        raise ValueError(f"thread_affinity_core_list names cores {bad} that "
                         f"do not exist (usable: {available_cores()})")
    try:
        os.sched_setaffinity(0, cores)
    except OSError as exc:
        raise ValueError(f"cannot pin to cores {list(cores)}: {exc}") from exc
    for task in os.listdir("/proc/self/task"):
        try:
            os.sched_setaffinity(int(task), cores)
        except OSError:
            pass    # the thread ended meanwhile


# -- BLAS threads ----------------------------------------------------------------
_blas = {"threads": None, "libraries": None}
OPENMP_DUPLICATES = "KMP_DUPLICATE_LIB_OK"      # what threadpoolctl sets
_blas_lock = threading.RLock()   # set_blas_threads holds it to find them


def set_blas_threads(threads: int) -> None:
    """Give the BLAS NumPy loaded ``threads`` threads (threadpoolctl); a
    comparison when it has them already."""
    if _blas["threads"] == threads:
        return
    with _blas_lock:
        for library in blas_libraries():
            library.set_num_threads(threads)
        _blas["threads"] = threads


def blas_libraries() -> list:
    """threadpoolctl's handles on the BLAS libraries NumPy loaded (found
    once)."""
    with _blas_lock:
        if _blas["libraries"] is None:
            _blas["libraries"] = _find_blas_libraries()
    return _blas["libraries"]


def _find_blas_libraries() -> list:
    """threadpoolctl's handles on the BLAS libraries NumPy loaded. Importing
    threadpoolctl sets KMP_DUPLICATE_LIB_OK in os.environ (for its users who
    load two OpenMP runtimes); refinfer only counts threads through it, so
    the environment is left as it was."""
    ours = OPENMP_DUPLICATES not in os.environ
    from threadpoolctl import ThreadpoolController
    if ours:
        os.environ.pop(OPENMP_DUPLICATES, None)
    return ThreadpoolController().select(user_api="blas").lib_controllers


# -- Numba's cache folder --------------------------------------------------------
def default_cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "refinfer", "numba")


def _writable_dir(path: str) -> str | None:
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return None
    return path if os.access(path, os.W_OK | os.X_OK) else None


# settings that change constants compiled into the kernels
COMPILED_SETTINGS = ("REFINFER_PACKED_TILE",)


def sources_key() -> str:
    """``refinfer-<digest>`` of every source file kernels are compiled from
    and of the COMPILED_SETTINGS in the environment."""
    ops = importlib.util.find_spec("refinfer.ops").submodule_search_locations[0]
    here = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.blake2b(digest_size=8)
    for name in COMPILED_SETTINGS:
        digest.update(f"{name}={os.environ.get(name, '')};".encode())
    for path in sorted(glob.glob(os.path.join(ops, "**", "*.py"), recursive=True)) + [
            os.path.join(here, "jit.py"), os.path.join(here, "threads.py")]:
        with open(path, "rb") as f:
            digest.update(f.read())
    return f"refinfer-{digest.hexdigest()}"


@functools.cache
def numba_cache_dir() -> str:
    """The sources' folder under the user's NUMBA_CACHE_DIR or refinfer's
    default (a NUMBA_CACHE_DIR that already is such a folder is kept); ""
    where nothing is writable (Numba's own default, next to the sources)."""
    key = sources_key()
    root = os.environ.get("NUMBA_CACHE_DIR") or default_cache_dir()
    if os.path.basename(root) == key:
        return root
    return _writable_dir(os.path.join(root, key)) or _writable_dir(
        os.path.join(tempfile.gettempdir(), f"refinfer-numba-{os.getuid()}", key)) or ""
