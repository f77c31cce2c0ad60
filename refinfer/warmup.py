"""Compile a model's fast kernels at build time, so ``predict`` never does.

Numba compiles a kernel for each new combination of argument types on its
first call (about half a second each) and caches the result on disk
(refinfer/jit.py). A fast-backend model is therefore run once on zeros of
its declared input shapes while it is built: every kernel signature the
model needs is compiled, or loaded from the cache, and every per-shape
pre-computation (convolution geometry, elementwise layouts) is done.
Compilations print a progress line; cache loads are silent.

The warm-up run is bounded: a model whose run depends on its input data (a
loop whose count is an input, or one that never ends on zeros) stops after
``WARMUP_CALLS`` graph calls, keeps the kernels compiled so far and says so
in a line on the progress stream; the others compile at the first predict.
Models whose inputs have unknown dimensions (-1) are not warmed: their
kernels compile at the first predict. ``refinfer warmup MODEL...`` fills the
cache ahead of deployment.
"""
from __future__ import annotations

import numpy as np

from . import jit
from .executor import CallBudgetExceeded

# Graph calls (loop iterations among them) the warm-up run may make: enough
# to reach every kernel of a loop body, a fraction of a second when spent.
WARMUP_CALLS = 10_000


def compile_kernels(loaded, stream=None) -> tuple[int, str]:
    """Run ``loaded`` (a runtime.LoadedModel) once on zeros; returns the
    number of kernels compiled (0 when the cache had them all, or when the
    input shapes are not static) and a note saying why the run stopped
    early ("" when it did not run out of its budget)."""
    specs = loaded.inputs
    if any(s.dtype is None or any(d < 0 for d in s.shape) for s in specs):
        return 0, ""
    zeros = [np.zeros(s.shape, s.dtype) for s in specs]
    note = ""
    with jit.progress(stream) as listener, np.errstate(all="ignore"):
        try:
            loaded.run(zeros, max_calls=WARMUP_CALLS)
        except CallBudgetExceeded:
            note = (f"warm-up stopped after {WARMUP_CALLS} graph calls: the "
                    f"model's loops depend on its input data and did not end "
                    f"on zeros; kernels not reached compile at the first "
                    f"predict")
            print(f"refinfer: {loaded.path}: {note}", file=listener.stream,
                  flush=True)
        except Exception:   # noqa: BLE001  value-dependent failure on zeros:
            pass            # the kernels not reached compile at first use
    return listener.count, note
