"""How ``Model`` runs: the backend and the threads (the fast path).

- Backend: ``numba`` (the default for ``predict``: Numba kernels, fused plan,
  see docs/performance.md) or ``reference`` (op-by-op NumPy, the numerical
  truth). Chosen by the ``[refinfer]`` config entry ``backend``, in a config
  file (``backend=reference``) or ``config_dict={"refinfer": {"backend":
  "reference"}}``. The float64 precision (``[refinfer] precision=float64``)
  always runs on the reference.
- Threads: ``context.cpu.thread_num`` (0 = all usable cores) is the number
  of threads a predict uses (refinfer's worker pool on the fast backend,
  BLAS's threads on the reference); ``context.cpu.thread_affinity_core_list``
  pins the threads to those cores (refinfer/threads.py).
"""
from __future__ import annotations

from .. import threads
from .context import Context

SECTION = "refinfer"
BACKENDS = ("numba", "reference")
DEFAULT_BACKEND = "numba"


def backend_setting(config: dict) -> tuple[str, dict]:
    """``(backend, config without the backend entry)``; ValueError for an
    unknown backend."""
    section = dict(config.get(SECTION) or {})
    backend = str(section.pop("backend", DEFAULT_BACKEND)).strip().lower()
    if backend not in BACKENDS:
        raise ValueError(f"[{SECTION}] backend={backend!r}: expected one of "
                         f"{', '.join(BACKENDS)}")
    rest = dict(config)
    if SECTION in rest:
        rest[SECTION] = section
    return backend, rest


def effective_backend(backend: str, precision: str) -> str:
    return "reference" if precision != "float32" else backend


def thread_settings(context: Context, backend: str) -> threads.ThreadSettings:
    """Apply ``context.cpu``'s affinity now; the thread count is applied
    at every predict (refinfer/threads.py): to refinfer's own workers on the
    fast backend, to BLAS on the reference."""
    return threads.configure(context.cpu.thread_num,
                             context.cpu.thread_affinity_core_list,
                             split_gemm=backend != "reference")
