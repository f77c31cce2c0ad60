"""Numba set-up for the fast kernels: cache directory, jit options, progress.

Every fast kernel is compiled with :func:`kernel`: ``cache=True`` (compiled
code is written to disk and reloaded by later processes), ``nogil=True``
(predict may run in several threads at once), NumPy's error model (float
division by zero gives inf/NaN, as in the reference kernels) and no
``fastmath`` (results must stay within the op tolerances of the reference).

Kernels are compiled single-threaded (no ``parallel=True``): a kernel that
can be split takes a range of its work (rows, channels) and
refinfer/threads.py runs the ranges on its own worker pool, which also
splits the GEMMs (BLAS then runs one thread). Numba's threading layers do
not fit: the OpenMP one spin-waits against OpenBLAS's threads (on this
project's 2-core machine, alternating a ``parallel=True`` kernel with a GEMM
ran 100 pairs in over 60 s instead of 50 ms), and the workqueue one aborts
the process when two threads run kernels at once (ModelParallelRunner
does). No threading layer is ever loaded, which also keeps forked workers
safe.

Cache directory: Numba caches next to the source file by default, which
fails in a read-only site-packages. refinfer caches under the user's
``NUMBA_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/refinfer/numba``
(``~/.cache/refinfer/numba``), falling back to a temporary folder when that
is not writable; in a sub-folder named by a digest of the kernel sources
(:func:`sources_key`). Numba checks a cached kernel against its own source
file only, not against the helpers it compiled in from other files
(``ops/_fast.py`` ...): after an upgrade, a cache made from other sources
would silently run old code. This module must be imported before any
kernel is defined: the ops import it, and it sets the directory before
importing Numba.

Compilation: a new kernel signature costs about half a second. While a
model is built, :func:`progress` prints one line per kernel compiled (cache
hits print nothing), so a cold start explains itself.
"""
from __future__ import annotations

import contextlib
import glob
import hashlib
import importlib.util
import os
import sys
import tempfile


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


def sources_key() -> str:
    """``refinfer-<digest>`` of every source file kernels are compiled from."""
    ops = importlib.util.find_spec("refinfer.ops").submodule_search_locations[0]
    here = os.path.dirname(os.path.abspath(__file__))
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(glob.glob(os.path.join(ops, "**", "*.py"), recursive=True)) + [
            os.path.join(here, "jit.py"), os.path.join(here, "threads.py")]:
        with open(path, "rb") as f:
            digest.update(f.read())
    return f"refinfer-{digest.hexdigest()}"


def _choose_cache_dir() -> str:
    """The sources' folder under the user's NUMBA_CACHE_DIR or refinfer's
    default, set in the environment so that worker processes inherit it
    (they find their key already there)."""
    key = sources_key()
    root = os.environ.get("NUMBA_CACHE_DIR") or default_cache_dir()
    if os.path.basename(root) == key:
        return root
    path = _writable_dir(os.path.join(root, key)) or _writable_dir(
        os.path.join(tempfile.gettempdir(), f"refinfer-numba-{os.getuid()}", key))
    if path is None:
        return ""   # Numba's own default (next to the sources)
    os.environ["NUMBA_CACHE_DIR"] = path
    if "numba" in sys.modules:      # imported earlier: tell its config too
        sys.modules["numba"].config.CACHE_DIR = path
    return path


CACHE_DIR = _choose_cache_dir()

import numba  # noqa: E402  (after the cache directory is chosen)
from numba.core import event  # noqa: E402


def kernel(fn):
    """``@kernel``: a cached, GIL-free, single-threaded Numba kernel."""
    return numba.njit(cache=True, nogil=True, error_model="numpy")(fn)


class _Progress(event.Listener):
    """Prints a line when a top-level kernel compile starts (nested
    compiles of helper functions are part of it)."""

    def __init__(self, stream):
        self.stream, self.depth, self.count = stream, 0, 0

    def on_start(self, ev):
        self.depth += 1
        if self.depth == 1:
            self.count += 1
            dispatcher = ev.data["dispatcher"]
            types = ", ".join(str(t) for t in ev.data["args"])
            print(f"refinfer: compiling kernel {self.count}: "
                  f"{dispatcher.py_func.__qualname__}({types}) "
                  f"[once; cached in {CACHE_DIR or 'the package folder'}]",
                  file=self.stream, flush=True)

    def on_end(self, ev):
        self.depth -= 1


@contextlib.contextmanager
def progress(stream=None):
    """Report kernel compilations (not cache loads) while in the block.

    Returns the listener; its ``count`` is the number of kernels compiled.
    """
    listener = _Progress(stream or sys.stderr)
    with event.install_listener("numba:compile", listener):
        yield listener
