"""Compile a model's fast kernels at build time, so ``predict`` never does.

Numba compiles a kernel for each new combination of argument types on its
first call (about half a second each) and caches the result on disk
(refinfer/jit.py). A fast-backend model is therefore run once on zeros of
its declared input shapes while it is built: every kernel signature the
model needs is compiled, or loaded from the cache, and every per-shape
pre-computation (convolution geometry, elementwise layouts) is done.
Compilations print a progress line; cache loads are silent.

Models whose inputs have unknown dimensions (-1) are not warmed: their
kernels compile at the first predict. ``refinfer warmup MODEL...`` fills the
cache ahead of deployment.
"""
from __future__ import annotations

import numpy as np

from . import jit


def compile_kernels(loaded, stream=None) -> int:
    """Run ``loaded`` (a runtime.LoadedModel) once on zeros; returns the
    number of kernels compiled (0 when the cache had them all, or when the
    input shapes are not static)."""
    specs = loaded.inputs
    if any(s.dtype is None or any(d < 0 for d in s.shape) for s in specs):
        return 0
    zeros = [np.zeros(s.shape, s.dtype) for s in specs]
    with jit.progress(stream) as listener, np.errstate(all="ignore"):
        try:
            loaded.run(zeros)
        except Exception:   # noqa: BLE001  value-dependent failure on zeros:
            pass            # the kernels not reached compile at first use
    return listener.count
