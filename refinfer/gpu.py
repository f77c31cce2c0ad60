"""The GPU target's gate: the one module outside refinfer/cuda that imports
it, inside its functions, so only a model built for the GPU pays for
``numba.cuda`` (0.6 s) and the CPU path never loads it
(tests/test_layers.py).

- :func:`available`: whether a GPU and its driver answer (under numba's
  CUDA simulator, ``NUMBA_ENABLE_CUDASIM=1``, the simulated GPU counts).
- :func:`choose`: the backend a list of Lite targets asks for.
- :func:`compile_model`: the device plan of a model (refinfer/cuda/plan.py);
  :func:`compile_for` picks it or the CPU's plan by backend.
"""
from __future__ import annotations

from . import plan as cpu_plan

CUDA = "cuda"


class NoGPU(RuntimeError):
    """A target that needs a GPU, on a machine without one."""


def available() -> bool:
    """Whether numba.cuda finds a GPU and a driver (or the simulator)."""
    from .cuda import device
    return device.available()


def choose(targets, cpu_backend: str) -> str:
    """The backend for Lite's ``context.target`` list: ``"cuda"`` when the
    first target is ``gpu`` and a GPU is present; ``cpu_backend`` when it
    is ``cpu``, or ``gpu`` without a GPU followed by ``cpu`` (Lite's list
    means "in this order of preference"). ``gpu`` alone without a GPU is
    NoGPU naming the target and what is missing."""
    targets = [t.lower() for t in targets]
    if targets[0] != "gpu":
        return cpu_backend
    if available():
        return CUDA
    if "cpu" in targets[1:]:
        return cpu_backend
    raise NoGPU(f"context.target={targets}: no CUDA GPU or driver was found "
                "(numba.cuda.is_available() is False); add 'cpu' to the "
                "targets to fall back to the CPU, or set "
                "NUMBA_ENABLE_CUDASIM=1 to run numba's CUDA simulator")


def count() -> int:
    """How many GPUs numba.cuda sees (one under the simulator)."""
    from .cuda import device
    return device.gpu_count()


def rank_device(device_id: int | None, rank: tuple[int, int, int] | None) -> int:
    """The GPU a model is built on: ``device_id`` where the context sets
    one; else, for a rank of a distributed run (``rank``: its rank, the
    job's size and its rank on this machine, distributed.local_rank), the
    GPU of its local rank; else 0. A local rank beyond the GPUs present is
    a ValueError naming the rank and how many GPUs there are."""
    if device_id is not None:
        return device_id
    if rank is None:
        return 0
    number, size, local = rank
    gpus = count()
    if local >= gpus:
        raise ValueError(
            f"rank {number} of {size} is rank {local} on this machine, so it runs "
            f"on GPU {local} (device_id = local rank, as context.gpu.device_id "
            f"is not set), but this machine has {gpus} GPU(s): launch at most "
            f"{gpus} rank(s) per machine or set context.gpu.device_id")
    return local


def select(device_id: int) -> None:
    """Make GPU ``device_id`` (``context.gpu.device_id``) the device of
    this thread; ValueError when there is no such GPU."""
    from .cuda import device
    device.select(device_id)


def compile_model(model, keep: bool = False, precision: str = "float32"):
    """The device plan of ``model``: compiled op by op for the ``cuda``
    backend (no CPU fusions), every cuda kernel table loaded, placed."""
    from . import cuda
    from .cuda import plan
    cuda.load_kernels()
    program = cpu_plan.compile_model(model, CUDA, keep, precision, fuse=False)
    return plan.place(program, model)


def compile_for(model, backend: str, keep: bool = False,
                precision: str = "float32", fuse: bool = True):
    """The plan of ``model`` for ``backend``: the device plan for ``cuda``,
    else plan.compile_model's."""
    if backend == CUDA:
        return compile_model(model, keep, precision)
    return cpu_plan.compile_model(model, backend, keep, precision, fuse)


def kernel_ops() -> set[str]:
    """The names of the ops with a cuda kernel (every table loaded)."""
    from . import cuda, registry
    cuda.load_kernels()
    return {op.name for op in registry.list_ops() if "cuda" in op.kernels}


def running(program):
    """A context for running the device plan ``program`` in this thread:
    on the plan's stream for this thread, counting the host crossings;
    yields the refinfer.cuda.plan.Transfers."""
    from .cuda import plan
    return plan.running(program)


def describe(program) -> str:
    """The device plan's placements and host crossings, for explain."""
    from .cuda import plan
    return plan.describe(program)
