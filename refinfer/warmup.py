"""Compile a model's fast kernels at build time, so ``predict`` never does.

Numba compiles a kernel for each new combination of argument types on its
first call (about half a second each) and caches the result on disk
(refinfer/jit.py). A fast-backend model is therefore run once on zeros of
its declared input shapes while it is built: every kernel signature the
model needs is compiled, or loaded from the cache, and every per-shape
pre-computation (convolution geometry, elementwise layouts) is done.
Compilations print a progress line; cache loads are silent.

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

MAX_ZEROS_BYTES = 1 << 30       # the zeros a build may allocate to warm up


def compile_kernels(loaded, stream=None) -> int:
    """Run ``loaded`` (a runtime.LoadedModel) once on zeros; returns the
    number of kernels compiled (0 when the cache had them all, or when the
    input shapes are not static or too big to warm up on)."""
    specs = loaded.inputs
    if any(s.dtype is None or any(d < 0 for d in s.shape) for s in specs):
        return 0
    zeros = zeros_of([s.shape for s in specs], [s.dtype for s in specs])
    if zeros is None:
        print(f"refinfer: {loaded.path}: kernels not compiled at build: "
              f"{too_big(specs)}; they compile at the first predict",
              file=stream or sys.stderr, flush=True)
        return 0
    with jit.progress(stream) as listener, np.errstate(all="ignore"):
        try:
            loaded.run(zeros)
        except Exception:   # noqa: BLE001  value-dependent failure on zeros:
            pass            # the kernels not reached compile at first use
    return listener.count


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
