"""Entry point of the ``refinfer`` command (and ``python -m refinfer``):
prepares the process, then runs refinfer.cli.

NumPy's bundled OpenBLAS chooses its GEMM kernels when it is loaded. On
AVX-512 CPUs it does not recognise (AMD Zen 4/5) it falls back to its AVX2
(Haswell) kernels: single-thread sgemm measured 115-158 GFLOP/s there, and
219 GFLOP/s (the core's peak) with ``OPENBLAS_CORETYPE=SKYLAKEX``. The
variable is read once, when NumPy is first imported, so it must be set
before: ``import refinfer`` loads nothing (refinfer/__init__.py), and this
module imports only the standard library until it has set the variable for
the command's own process, when the CPU has the AVX-512 subsets SkylakeX
kernels use and the user has not set it. Library users set it in their
environment (docs/performance.md).
"""
from __future__ import annotations

import os

from .cpu import cpu_flags

SKYLAKEX_FLAGS = frozenset({"avx512f", "avx512cd", "avx512dq", "avx512bw",
                            "avx512vl"})


def openblas_coretype(environ, flags) -> str | None:
    """The OPENBLAS_CORETYPE to set, or None (the user's own value wins)."""
    if "OPENBLAS_CORETYPE" in environ or not SKYLAKEX_FLAGS <= flags:
        return None
    return "SKYLAKEX"


def main() -> int:
    coretype = openblas_coretype(os.environ, cpu_flags())
    if coretype is not None:
        os.environ["OPENBLAS_CORETYPE"] = coretype
    from .cli import main as run_cli      # here, not at the top: it loads NumPy
    return run_cli()
