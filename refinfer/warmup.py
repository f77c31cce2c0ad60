"""Compile a model's fast kernels at build time, so ``predict`` never does.

Numba compiles a kernel for each new combination of argument types on its
first call (about half a second each) and caches the result on disk
(refinfer/jit.py). A fast-backend model is therefore run once on zeros of
its declared input shapes while it is built: every kernel signature the
model needs is compiled, or loaded from the cache, and every per-shape
pre-computation (convolution geometry, elementwise layouts) is done.
Compilations print one line and, on a terminal, a progress bar over the
warm-up run's kernel steps; cache loads are silent.

The warm-up run is bounded: a model whose run depends on its input data (a
loop whose count is an input, or one that never ends on zeros) stops after
``WARMUP_CALLS`` graph calls, keeps the kernels compiled so far and says so
in a line on the progress stream; the others compile at the first predict.
Models whose inputs have unknown dimensions (-1) are not warmed: their
kernels compile at the first predict. Nor are models whose declared inputs
would take more than ``MAX_ZEROS_BYTES`` of zeros (a line says so): a build
must not allocate what the user never asked for. ``refinfer warmup
MODEL...`` fills the cache ahead of deployment.
"""
from __future__ import annotations

import math
import sys

import numpy as np

from . import jit
from .executor import CallBudgetExceeded, Hooks
from .plan import step_count

# Graph calls (loop iterations among them) the warm-up run may make: enough
# to reach every kernel of a loop body, a fraction of a second when spent.
WARMUP_CALLS = 10_000

MAX_ZEROS_BYTES = 1 << 30       # the zeros a build may allocate to warm up


def compile_kernels(loaded, stream=None) -> tuple[int, str]:
    """Run ``loaded`` (a runtime.LoadedModel) once on zeros; returns the
    number of kernels compiled (0 when the cache had them all, or when the
    input shapes are not static or too big to warm up on) and a note saying
    why the warm-up stopped or did not run ("" when it ran to the end)."""
    specs = loaded.inputs
    if any(s.dtype is None or any(d < 0 for d in s.shape) for s in specs):
        return 0, ""
    zeros = zeros_of([s.shape for s in specs], [s.dtype for s in specs])
    if zeros is None:
        note = (f"kernels not compiled at build: {too_big(specs)}; they "
                f"compile at the first predict")
        _report(loaded, note, stream)
        return 0, note
    note = ""
    with jit.progress(stream, step_count(loaded.program), loaded.path) \
            as listener, np.errstate(all="ignore"):
        # (a hook after each kernel step only where a bar shows: a Python
        # call per step, felt by a long run of small ops)
        hooks = Hooks(after=listener.step) if listener.shows_bar else None
        try:
            loaded.run(zeros, hooks, fused=True, max_calls=WARMUP_CALLS)
        except CallBudgetExceeded:
            note = (f"warm-up stopped after {WARMUP_CALLS} graph calls: the "
                    f"model's loops depend on its input data and did not end "
                    f"on zeros; kernels not reached compile at the first "
                    f"predict")
            _report(loaded, note, stream)
        except Exception:   # noqa: BLE001  value-dependent failure on zeros:
            pass            # the kernels not reached compile at first use
    return listener.count, note


def _report(loaded, note: str, stream) -> None:
    print(f"refinfer: {loaded.path}: {note}", file=stream or sys.stderr,
          flush=True)


def zeros_of(shapes, dtypes) -> list[np.ndarray] | None:
    """Zeros of these shapes and dtypes, or None when they would take more
    than ``MAX_ZEROS_BYTES`` or cannot be allocated."""
    if sum(map(nbytes, shapes, dtypes)) > MAX_ZEROS_BYTES:
        return None
    try:
        return [np.zeros(shape, dtype) for shape, dtype in zip(shapes, dtypes)]
    except MemoryError:
        return None


def nbytes(shape, dtype) -> int:
    """Bytes of an array of ``shape`` and ``dtype`` (Python ints: exact)."""
    return math.prod(shape) * np.dtype(dtype).itemsize


def too_big(specs) -> str:
    """Why zeros of the inputs (runtime.IOSpec) are not allocated, naming
    the largest input."""
    sizes = [nbytes(s.shape, s.dtype) for s in specs]
    largest = specs[sizes.index(max(sizes))]
    return (f"input {largest.name!r} ({np.dtype(largest.dtype).name}"
            f"{list(largest.shape)}) needs {byte_size(max(sizes))} of zeros "
            f"({byte_size(sum(sizes))} for all inputs), more than a build "
            f"allocates ({byte_size(MAX_ZEROS_BYTES)}) or the machine gives")


UNITS = ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")


def byte_size(count: int) -> str:
    """``12 bytes``, ``3.5 KiB``, ``4 TiB``."""
    unit = min(max(0, (count.bit_length() - 1) // 10), len(UNITS) - 1)
    return f"{count} bytes" if unit == 0 else f"{count / 1024 ** unit:.3g} {UNITS[unit]}"
