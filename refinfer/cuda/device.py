"""numba.cuda for the rest of refinfer/cuda: the import, the launch helper,
host/device copies, and the math functions kernels call.

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
"""
from __future__ import annotations

import math
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
    """Run ``kernel(*args)``, a grid-stride loop over ``count`` items."""
    blocks, threads = launch_shape(count)
    kernel[blocks, threads](*args)


def to_device(array: np.ndarray):
    """A device copy of a host array (made C-contiguous first)."""
    return cuda.to_device(np.ascontiguousarray(array))


def empty(shape, dtype):
    """An uninitialised device array."""
    return cuda.device_array(shape, dtype)


def to_host(device_array) -> np.ndarray:
    """The device array's values, copied into a new host array."""
    return device_array.copy_to_host()


def launch_blocks(kernel, count: int, threads, *args) -> None:
    """Run ``kernel(*args)`` with blocks of ``threads`` (an int or a 2-D
    shape) that stride over ``count`` work items, one item per block at a
    time (tiled kernels: a tile needs its whole block for syncthreads):
    up to MAX_BLOCKS blocks on a GPU, one under the simulator (it starts
    a Python thread per CUDA thread of every block)."""
    blocks = 1 if SIMULATED else max(1, min(count, MAX_BLOCKS))
    kernel[blocks, threads](*args)


def is_device_array(value) -> bool:
    """Whether ``value`` is a device array (numba's, or the simulator's
    stand-in, which has no ``__cuda_array_interface__``)."""
    return hasattr(value, "copy_to_host") and hasattr(value, "shape")


def constant(array: np.ndarray):
    """A device copy of small host metadata (offsets, strides) a kernel
    reads: int64, C-contiguous, at least one element (a zero-size argument
    is the same as any other to a kernel)."""
    array = np.ascontiguousarray(array, np.int64).reshape(-1)
    return cuda.to_device(array if array.size else np.zeros(1, np.int64))


def zeros(shape, dtype):
    """A device array of zeros (a small one: copied from the host)."""
    return cuda.to_device(np.zeros(shape, dtype))


def copy(array):
    """A device copy of a device array (an output that must not alias an
    input)."""
    out = cuda.device_array(array.shape, array.dtype)
    out.copy_to_device(array)
    return out
