"""How ``Model`` runs: the backend, the threads (the fast path) and what its
build may change in the process.

- Backend: ``numba`` (the default for ``predict``: Numba kernels, fused plan,
  see docs/performance.md) or ``reference`` (op-by-op NumPy, the numerical
  truth). Chosen by the ``[refinfer]`` config entry ``backend``, in a config
  file (``backend=reference``) or ``config_dict={"refinfer": {"backend":
  "reference"}}``. The float64 precision (``[refinfer] precision=float64``)
  always runs on the reference; so does float16 storage (``[refinfer]
  precision=float16``, refinfer/precision.py) on the CPU: the oracle of the
  GPU's ``preferred_fp16``.
- Target: ``context.target = ["gpu"]`` runs the device plan (backend
  ``cuda``, refinfer/cuda/plan.py) on GPU ``context.gpu.device_id``;
  ``["gpu", "cpu"]`` runs on the CPU backend above where no GPU or driver
  is present, ``["gpu"]`` alone is then a build error (refinfer/gpu.py).
  ``context.gpu.precision_mode``: ``enforce_fp32`` computes in float32
  (no TF32 anywhere: MindSpore's GPU default); ``preferred_fp16`` runs the
  device plan in float16 storage with float32 arithmetic inside each op
  (products accumulate in float32), the precision ``float16``; the float64
  precision, if asked for, wins and runs on the CPU's reference. Where
  ``["gpu", "cpu"]`` falls back to the CPU, the GPU's mode does not apply:
  ``context.cpu.precision_mode`` is accepted and runs float32 (Lite uses
  fp16 CPU kernels only on ARMv8.2, never on x86).
- Threads: ``context.cpu.thread_num`` (0 = all usable cores) is the number
  of threads a predict uses (refinfer's worker pool on the fast backend,
  BLAS's threads on the reference); ``context.cpu.thread_affinity_core_list``
  pins the threads to those cores (refinfer/threads.py).
- Process tuning: once built, a model tunes glibc's malloc for steady
  predicts (refinfer/process.py); ``[refinfer] process_tuning=off`` leaves
  the process as it is (default ``on``).
- Call depth: ``[refinfer] max_call_depth`` (default 1000, MindSpore's
  ``max_call_depth`` default) bounds how deep graph calls nest in a
  predict; a graph that calls itself deeper fails with an error naming the
  graph and its call node. Loops do not count: each iteration replaces
  the frame of the one before (refinfer/executor.py).
- Graph calls: ``[refinfer] max_graph_calls`` (default 100,000; 0 for no
  limit) bounds the graph calls of one predict, loop iterations included:
  a loop written into the file that never ends stops with an error naming
  the graph and its call node instead of hanging the predict.
"""
from __future__ import annotations

from .. import gpu, threads
from ..executor import DEFAULT_MAX_CALL_DEPTH, DEFAULT_MAX_GRAPH_CALLS
from .context import Context
from .debug import FALSE, TRUE

SECTION = "refinfer"
BACKENDS = ("numba", "reference")
DEFAULT_BACKEND = "numba"
MAX_CALL_DEPTH = 1_000_000      # highest max_call_depth accepted
MAX_GRAPH_CALLS = 10 ** 12      # highest max_graph_calls accepted


def backend_setting(config: dict) -> tuple[str, dict]:
    """``(backend, config without the backend entry)``; ValueError for an
    unknown backend."""
    backend, rest = _pop_setting(config, "backend", DEFAULT_BACKEND)
    if backend not in BACKENDS:
        raise ValueError(f"[{SECTION}] backend={backend!r}: expected one of "
                         f"{', '.join(BACKENDS)}")
    return backend, rest


def process_tuning_setting(config: dict) -> tuple[bool, dict]:
    """``(whether to tune the process, config without the entry)``;
    ValueError for a value that is neither on nor off."""
    tuning, rest = _pop_setting(config, "process_tuning", "on")
    if tuning not in TRUE + FALSE:
        raise ValueError(f"[{SECTION}] process_tuning={tuning!r}: expected on "
                         "or off")
    return tuning in TRUE, rest


def call_limits_setting(config: dict) -> tuple[int, int, dict]:
    """``(max_call_depth, max_graph_calls, config without the entries)``;
    ValueError for a value out of its range."""
    depth, rest = _integer_setting(config, "max_call_depth",
                                   DEFAULT_MAX_CALL_DEPTH, 1, MAX_CALL_DEPTH)
    calls, rest = _integer_setting(rest, "max_graph_calls",
                                   DEFAULT_MAX_GRAPH_CALLS, 0, MAX_GRAPH_CALLS)
    return depth, calls, rest


def _integer_setting(config: dict, key: str, default: int, lowest: int,
                     highest: int) -> tuple[int, dict]:
    """``[refinfer] key`` as an integer from lowest to highest, and the
    config without it."""
    text, rest = _pop_setting(config, key, str(default))
    digits = text.isascii() and text.isdigit() and len(text) <= len(str(highest))
    if not digits or not lowest <= int(text) <= highest:
        raise ValueError(f"[{SECTION}] {key}={text!r}: expected an integer "
                         f"from {lowest} to {highest} (default {default})")
    return int(text), rest


def _pop_setting(config: dict, key: str, default: str) -> tuple[str, dict]:
    """``[refinfer] key`` (lower case), and the config without it."""
    section = dict(config.get(SECTION) or {})
    value = str(section.pop(key, default)).strip().lower()
    rest = dict(config)
    if SECTION in rest:
        rest[SECTION] = section
    return value, rest


def target_backend(context: Context, backend: str) -> str:
    """The backend ``context.target`` asks for: ``cuda`` for a GPU, else
    ``backend`` (the CPU's); gpu.NoGPU for ``["gpu"]`` without a GPU."""
    return gpu.choose(context.target, backend)


def target_precision(context: Context, backend: str, precision: str) -> str:
    """The precision of a model built for ``backend``: float16 for the
    GPU's ``preferred_fp16`` unless ``[refinfer] precision`` asks for
    float64; else ``precision``."""
    fp16 = backend == gpu.CUDA and context.gpu.precision_mode == "preferred_fp16"
    return "float16" if fp16 and precision != "float64" else precision


def effective_backend(backend: str, precision: str) -> str:
    """The backend that runs ``precision``: float64, and float16 off the
    GPU, run on the reference."""
    fast = precision == "float32" or precision == "float16" and backend == gpu.CUDA
    return backend if fast else "reference"


def thread_settings(context: Context, backend: str) -> threads.ThreadSettings:
    """Apply ``context.cpu``'s affinity now; the thread count is applied
    at every predict (refinfer/threads.py): to refinfer's own workers on the
    fast backend, to BLAS on the reference."""
    return threads.configure(context.cpu.thread_num,
                             context.cpu.thread_affinity_core_list,
                             split_gemm=backend != "reference")
