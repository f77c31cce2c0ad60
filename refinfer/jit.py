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

Cache directory: refinfer/process.py chooses it (a folder per version of
the kernel sources); this module hands it to Numba's own configuration when
it loads, before any kernel is defined (the ops import it), and never writes
it into the environment.

Compilation: a new kernel signature costs about half a second. While a
model is built, :func:`progress` prints one line per kernel compiled (cache
hits print nothing), so a cold start explains itself.
"""
from __future__ import annotations

import contextlib
import sys

import numba
from numba.core import event

from .process import numba_cache_dir

CACHE_DIR = numba_cache_dir()
if CACHE_DIR:   # Numba picks a kernel's cache folder when the kernel is defined
    numba.config.CACHE_DIR = CACHE_DIR


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
