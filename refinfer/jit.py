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

Compilation: a new kernel signature costs about half a second, and a
kernel's helpers more than their own share. Numba compiles a kernel that
another kernel calls on its own, then LLVM optimises that code again in
the caller's module, and again in its caller's: a kernel doing nothing but
call the compiled depthwise convolution took 0.9 s to compile, 0.8 s of it
LLVM's. A helper only kernels call is therefore :func:`inlined`: inlined at
Numba's IR level, it is compiled once, in its caller (MobileNetV2's block
kernel 6.6-9.0 s -> 4.7-5.8 s). Helpers called from many places of one
kernel (``program.activate_light``) stay kernels: a copy at each call site
cost as much as it saved. A kernel compiles once per signature, so its
callers pass arrays of one layout and indices of one integer type.

While a model is built, :func:`progress` says so in one line at the first
kernel compiled (with the hint to run ``refinfer warmup`` ahead of
deployment), shows a "compiling kernels" bar on a terminal and prints the
count at the end; cache hits print nothing, so a warm start is silent.
"""
from __future__ import annotations

import contextlib
import sys
import time

import numba
from numba.core import event, types
from numba.core.registry import CPUDispatcher
from tqdm import tqdm

from .process import numba_cache_dir

CACHE_DIR = numba_cache_dir()
if CACHE_DIR:   # Numba picks a kernel's cache folder when the kernel is defined
    numba.config.CACHE_DIR = CACHE_DIR


class _Kernel(CPUDispatcher):
    """A dispatcher that types a call from another kernel by the
    arguments' types, not their values. Numba keeps a constant argument's
    value in its type (``Literal[int](0)``) and compiles the callee once
    per value: ``_tap(phases, where, 0)`` .. ``(.., 8)`` were nine
    compilations of one helper, a second of the depthwise kernel's cold
    start. Values still fold once LLVM inlines the callee."""

    def get_call_template(self, args, kws):
        return super().get_call_template(
            tuple(types.unliteral(a) for a in args),
            {k: types.unliteral(v) for k, v in kws.items()})


def kernel(fn, inline: str = "never"):
    """``@kernel``: a cached, GIL-free, single-threaded Numba kernel."""
    compiled = _Kernel(py_func=fn, locals={}, targetoptions={
        "nopython": True, "boundscheck": None, "nogil": True,
        "error_model": "numpy", "inline": inline})
    compiled.enable_caching()
    return compiled


def inlined(fn):
    """``@inlined``: a :func:`kernel` whose calls from other kernels are
    inlined into them at Numba's IR level (see the module's docstring)."""
    return kernel(fn, inline="always")


class _Progress(event.Listener):
    """Counts the top-level kernel compiles (nested compiles of helper
    functions are part of one). The first says, in one line, what happens
    and how to avoid it; on a terminal a bar then follows the run that
    compiles (``step`` is its executor hook after each kernel step, out of
    ``total`` steps, None when loops make it unknown). Closing prints how
    many were compiled, and how long it took."""

    def __init__(self, stream, total: int | None, what: str):
        self.stream, self.total, self.what = stream, total, what
        self.depth, self.count, self.steps = 0, 0, 0
        self.bar: tqdm | None = None
        self.started = 0.0

    def on_start(self, ev):
        self.depth += 1
        if self.depth > 1:
            return
        self.count += 1
        if self.count == 1:
            self._announce()
        if self.bar is not None:
            self.bar.set_postfix_str(f"{self.count} compiled")

    def on_end(self, ev):
        self.depth -= 1

    @property
    def shows_bar(self) -> bool:
        """Whether a bar may show (on a terminal): only then need the run
        call :meth:`step` after each kernel step."""
        return _is_terminal(self.stream)

    def step(self, *_) -> None:
        self.steps += 1
        if self.bar is not None:
            self.bar.update(1)

    def _announce(self) -> None:
        print(f"refinfer: compiling the fast kernels{self.what} once (cached "
              f"in {CACHE_DIR or 'the package folder'}; `refinfer warmup "
              f"MODEL` compiles them ahead of deployment)", file=self.stream,
              flush=True)
        self.started = time.perf_counter()
        if _is_terminal(self.stream):
            self.bar = tqdm(total=self.total, initial=self.steps,
                            desc="compiling kernels", unit="node",
                            file=self.stream, leave=False, dynamic_ncols=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        if self.count:
            print(f"refinfer: {self.count} kernel(s) compiled in "
                  f"{time.perf_counter() - self.started:.1f} s",
                  file=self.stream, flush=True)


def _is_terminal(stream) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


@contextlib.contextmanager
def progress(stream=None, total: int | None = None, model: str = ""):
    """Report kernel compilations (not cache loads) while in the block:
    one line at the first, a bar on a terminal, a count at the end.

    Returns the listener: its ``count`` is the number of kernels compiled,
    its ``step`` the executor hook that advances the bar (``total`` steps
    of ``model``'s run)."""
    listener = _Progress(stream or sys.stderr, total,
                         f" of {model}" if model else "")
    try:
        with event.install_listener("numba:compile", listener):
            yield listener
    finally:
        listener.close()
