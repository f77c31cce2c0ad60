"""numba.cuda for the rest of refinfer/cuda: the import, the launch helper,
host/device copies, the stream they are ordered on, and the math functions
kernels call.

The import is here only, so a later switch to NVIDIA's ``numba-cuda``
(which also answers to ``numba.cuda``) or to ``numba-cuda-mlir`` (which
has no simulator) is one line.

Under the CUDA simulator (``NUMBA_ENABLE_CUDASIM=1`` before numba.cuda is
first imported) a kernel is Python, one thread per CUDA thread, blocks one
after another. Python's ``math`` raises where the GPU returns inf or NaN
(``math.exp(1000)``, ``math.floor(nan)``), so kernels call the functions
of :data:`dmath`: ``math`` itself on a GPU (what the compiler lowers to
libdevice), NumPy's ufuncs with their warnings silenced under the
simulator.

Streams: every launch, copy and pool buffer here goes through the
:class:`Lane` current in the calling thread (:func:`using`): one CUDA
stream and the pool of buffers freed in its order. A device plan owns one
lane per thread that runs it (refinfer/cuda/plan.py: ModelParallelRunner's
workers each get theirs and run concurrently on a GPU); outside a plan's
run (a kernel called directly, the weights copied at build) the lane is
:data:`DEFAULT_LANE`: CUDA's default stream and the process-wide
:data:`POOL`. Copies to the host wait for their stream
(:func:`synchronize`): the only points where the host waits for the GPU.
"""
from __future__ import annotations

import contextlib
import contextvars
import math
import threading
from types import SimpleNamespace

import numpy as np
from numba import cuda      # the one import of numba.cuda
from numba.core import config

SIMULATED = bool(config.ENABLE_CUDASIM)
THREADS = 128           # threads per block on a GPU
MAX_BLOCKS = 1024       # grid-stride loops cover the rest
# The simulator runs a Python thread per CUDA thread (40-130 us each to
# start) and ~1 us per element of a grid-stride loop: one warp-sized block
# is the fastest grid it runs (docs/gpu-facts in the shared notes).
SIMULATED_THREADS = 32
_SIMULATOR_TURN = threading.Lock()

# Kernels name ``cuda`` itself for cuda.grid, cuda.local...: the simulator
# swaps the module object in a kernel's globals for its per-thread one.
jit = cuda.jit
device_function = cuda.jit(device=True)


def _quiet(ufunc):
    """``ufunc`` without NumPy's floating-point warnings (the GPU has none)."""
    def call(*args):
        with np.errstate(all="ignore"):
            return ufunc(*args)
    return call


_UFUNCS = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt, "tanh": np.tanh,
           "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin,
           "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh,
           "cosh": np.cosh, "asinh": np.arcsinh, "acosh": np.arccosh,
           "atanh": np.arctanh, "expm1": np.expm1, "log1p": np.log1p,
           "log2": np.log2, "log10": np.log10, "atan2": np.arctan2,
           "hypot": np.hypot, "floor": np.floor, "ceil": np.ceil,
           "trunc": np.trunc}
# math.erf and math.erfc never raise (erf(nan) is nan): they serve as they are.
dmath = SimpleNamespace(erf=math.erf, erfc=math.erfc, **{
    name: _quiet(ufunc) for name, ufunc in _UFUNCS.items()}) if SIMULATED else math


def launch_shape(count: int) -> tuple[int, int]:
    """(blocks, threads) for a grid-stride loop over ``count`` items: one
    thread per item up to MAX_BLOCKS blocks on a GPU, a single block of at
    most SIMULATED_THREADS threads under the simulator."""
    if SIMULATED:
        return 1, max(1, min(count, SIMULATED_THREADS))
    return max(1, min(-(-count // THREADS), MAX_BLOCKS)), THREADS


def launch(kernel, count: int, *args) -> None:
    """Run ``kernel(*args)``, a grid-stride loop over ``count`` items. The
    simulator runs one kernel at a time in a process (it asserts so): its
    launches from several threads (ModelParallelRunner's workers) wait in
    turn; a GPU takes them as they come."""
    blocks, threads = launch_shape(count)
    with _SIMULATOR_TURN if SIMULATED else contextlib.nullcontext():
        kernel[blocks, threads, stream()](*args)


def to_device(array: np.ndarray):
    """A device copy of a host array (made C-contiguous first; a 0-d
    array stays 0-d, where NumPy's ascontiguousarray makes it 1-d)."""
    array = np.asarray(array)
    return cuda.to_device(np.ascontiguousarray(array).reshape(array.shape),
                          stream=stream())


class Pool:
    """Dead device arrays kept for reuse, bucketed by dtype and size: a
    buffer released by the plan (refinfer/cuda/plan.py, ReleaseStep) or a
    kernel's scratch serves the next :func:`empty` of that dtype and size,
    reshaped, instead of a new allocation. At most ``per_size`` arrays a
    bucket are kept (the rest go to numba's deallocation as before). A
    pool belongs to one :class:`Lane`: its stream orders every kernel that
    uses the pool, so a buffer reused by a later kernel is never written
    while an earlier one still reads it."""

    def __init__(self, per_size: int = 4):
        self.per_size = per_size
        self._free: dict[tuple, list] = {}
        self._lock = threading.Lock()
        self.allocated = self.reused = 0

    def take(self, shape, dtype):
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        key = (np.dtype(dtype).str, math.prod(shape))
        with self._lock:
            kept = self._free.get(key)
            array = kept.pop() if kept else None
            if array is None:
                self.allocated += 1
            else:
                self.reused += 1
        if array is None:
            return cuda.device_array(shape, dtype, stream=stream())
        return array if array.shape == shape else array.reshape(shape)

    def give(self, array) -> None:
        """Keep ``array``, which nothing reads any more, for reuse."""
        if array.size == 0:
            return
        key = (array.dtype.str, array.size)
        with self._lock:
            kept = self._free.setdefault(key, [])
            if len(kept) < self.per_size:
                kept.append(array)

    def clear(self) -> None:
        with self._lock:
            self._free.clear()
            self.allocated = self.reused = 0


POOL = Pool()


class Lane:
    """One CUDA stream and the :class:`Pool` of the buffers freed in its
    order. ``stream`` 0 is CUDA's default stream; None makes a stream of
    the calling thread's device. ``synchronizations``: how many times the
    host waited for the stream (:func:`synchronize`)."""

    def __init__(self, stream=None, pool: Pool | None = None):
        self.stream = cuda.stream() if stream is None else stream
        self.pool = Pool() if pool is None else pool
        self.synchronizations = 0


DEFAULT_LANE = Lane(0, POOL)
_LANE: contextvars.ContextVar[Lane] = contextvars.ContextVar(
    "refinfer_cuda_lane", default=DEFAULT_LANE)


def lane() -> Lane:
    """The lane of the calling thread's launches and copies."""
    return _LANE.get()


def stream():
    """The CUDA stream launches and copies are ordered on (0: the default
    stream)."""
    return _LANE.get().stream


@contextlib.contextmanager
def using(chosen: Lane):
    """Launch, copy and pool on ``chosen`` until the block ends."""
    token = _LANE.set(chosen)
    try:
        yield chosen
    finally:
        _LANE.reset(token)


def synchronize() -> None:
    """Wait until everything queued on the current stream has run."""
    current = _LANE.get()
    current.synchronizations += 1
    if current.stream == 0:
        cuda.synchronize()
    else:
        current.stream.synchronize()


def empty(shape, dtype):
    """An uninitialised device array: a dead one of this dtype and size
    from the current lane's pool, else a new one."""
    return _LANE.get().pool.take(shape, dtype)


def release(array) -> None:
    """Give ``array`` (C-contiguous, read by nothing any more) to the
    current lane's pool."""
    _LANE.get().pool.give(array)


def copy_out(device_array) -> np.ndarray:
    """A host copy of the device array, queued on the current stream: its
    values are there once the stream is synchronised (:func:`synchronize`;
    :func:`to_host` does both)."""
    return device_array.copy_to_host(stream=stream())


def to_host(device_array) -> np.ndarray:
    """The device array's values, copied into a new host array once the
    kernels queued before have run."""
    host = copy_out(device_array)
    synchronize()
    return host


def is_device_array(value) -> bool:
    """Whether ``value`` is an array on the device (under the simulator,
    numba's fake device array)."""
    return getattr(value, "__cuda_ndarray__", False) is True


def stand_in(device_array, dtype=None) -> np.ndarray:
    """A host array with the device array's shape and dtype (or ``dtype``)
    and no memory (every stride 0): what code that reads only ``.shape``,
    ``.dtype`` or ``.ndim`` (shape ops, argument binding) is given instead
    of copying."""
    return np.broadcast_to(np.zeros((), dtype or device_array.dtype),
                           device_array.shape)


def available() -> bool:
    """Whether a GPU and its driver answer (always under the simulator)."""
    return cuda.is_available()


def gpu_count() -> int:
    """How many GPUs numba.cuda sees (one under the simulator)."""
    return len(cuda.gpus)


def select(device_id: int) -> None:
    """Make GPU ``device_id`` this thread's device; ValueError naming the
    id and how many GPUs there are when there is no such GPU."""
    gpus = gpu_count()
    if not 0 <= device_id < gpus:
        raise ValueError(f"context.gpu.device_id={device_id}: this machine "
                         f"has {gpus} GPU(s) (ids 0 to {gpus - 1})")
    cuda.select_device(device_id)


def launch_blocks(kernel, count: int, threads, *args) -> None:
    """Run ``kernel(*args)`` with blocks of ``threads`` (an int or a 2-D
    shape) that stride over ``count`` work items, one item per block at a
    time (tiled kernels: a tile needs its whole block for syncthreads):
    up to MAX_BLOCKS blocks on a GPU, one under the simulator (it starts
    a Python thread per CUDA thread of every block)."""
    blocks = 1 if SIMULATED else max(1, min(count, MAX_BLOCKS))
    with _SIMULATOR_TURN if SIMULATED else contextlib.nullcontext():
        kernel[blocks, threads, stream()](*args)


def constant(array: np.ndarray):
    """A device copy of small host metadata (offsets, strides) a kernel
    reads: int64, C-contiguous, at least one element (a zero-size argument
    is the same as any other to a kernel)."""
    array = np.ascontiguousarray(array, np.int64).reshape(-1)
    return to_device(array if array.size else np.zeros(1, np.int64))


def zeros(shape, dtype):
    """A device array of zeros (a small one: copied from the host)."""
    return to_device(np.zeros(shape, dtype))


def copy(array):
    """A device copy of a device array (an output that must not alias an
    input)."""
    out = empty(array.shape, array.dtype)
    out.copy_to_device(array, stream=stream())
    return out
