"""The ``cuda`` kernels of the ops that make constant tensors (the *Like,
New*, Fill* ops, Ones, Zeros, Eye), progressions (Arange, Range, LinSpace, LinSpaceExt)
and of Dropout as inference sees it (the input itself and a constant
mask): results made on the device, from the same shape and values as the
reference (ops/_ref/fill.py: fill_of; ops/_ref/sequence.py, given a device
``fill``), never copied from the host. Importing this module declares
them."""
from __future__ import annotations

from typing import Callable

import numpy as np

from refinfer import registry
from refinfer.ops._ref.fill import fill_of
from refinfer.ops._ref.sequence import evenly_spaced, progression

from . import device
from .device import cuda


@device.jit
def _fill(out, value):
    """out[i] = value, out flat."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, out.size, stride):
        out[i] = value


@device.jit
def _fill_from(out, source):
    """out[i] = source[0] (a one-element device array, cast to out's dtype),
    out flat: a fill whose value stays on the device."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, out.size, stride):
        out[i] = source[0]


@device.jit
def _eye(out):
    """out[r, c] = 1 where r == c, else 0."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    columns = out.shape[1]
    for i in range(start, out.size, stride):
        row, column = i // columns, i % columns
        out[row, column] = 1 if row == column else 0


@device.jit
def _affine(out, start, step):
    """out[i] = start + i * step, cast to out's dtype (a float truncated
    toward zero into an integer, integers wrapping)."""
    first, stride = cuda.grid(1), cuda.gridsize(1)
    for i in range(first, out.size, stride):
        out[i] = start + i * step


def affine(length: int, coefficients: np.ndarray, dtype):
    """The ``fill`` of ops/_ref/sequence.py on the device: [a + i * b for
    i < length], (a, b) = coefficients, in ``dtype``."""
    out = device.empty((length,), np.dtype(dtype))
    if length:
        device.launch(_affine, length, out, *coefficients)
    return out


def _host(value):
    """A progression's bound as the reference takes it: a device tensor
    (0-d, one element) read back, else the value itself."""
    return device.to_host(value) if device.is_device_array(value) else value


def arange(start, end, step, dtype=None):
    """Arange on the device (the reference's checks and length)."""
    return progression(*map(_host, (start, end, step)), dtype, "Arange", fill=affine)


def range_(start, end, step, maxlen=1000000):
    """Range on the device (the reference's checks and length)."""
    return progression(*map(_host, (start, end, step)), None, "Range", int(maxlen),
                       fill=affine)


def _spaced(start, end, steps, dtype):
    """evenly_spaced on the device (its one-value case made on the host
    and copied: one element)."""
    out = evenly_spaced(_host(start), _host(end), steps, dtype, fill=affine)
    return device.to_device(out) if isinstance(out, np.ndarray) else out


def lin_space(start, stop, num):
    """LinSpace: computed in start's dtype."""
    return _spaced(start, stop, num, start.dtype)


def lin_space_ext(start, end, steps, dtype=None):
    """LinSpaceExt: computed in dtype (None: float32)."""
    return _spaced(start, end, steps, dtype)


def filled(shape, value: np.ndarray):
    """A device array of ``shape`` holding ``value`` (a 0-d array: its
    dtype is the result's)."""
    out = device.empty(shape, value.dtype)
    if out.size:
        device.launch(_fill, out.size, out.reshape(-1), value[()])
    return out


def filled_from(shape, source, dtype=None):
    """A device array of ``shape`` holding the one element of the device
    array ``source``, cast to ``dtype`` (else source's dtype) on the
    device; None (the reference raises) where source holds more or less."""
    if source.size != 1:
        return None
    out = device.empty(tuple(int(d) for d in shape),
                       source.dtype if dtype is None else np.dtype(dtype))
    if out.size:
        device.launch(_fill_from, out.size, out.reshape(-1), source.reshape(1))
    return out


def _dtype_of(input, dtype):
    """The *Like and New* ops' dtype: ``dtype``, else the input's."""
    return input.dtype if dtype is None else dtype


# Op -> (shape, value, dtype) of its result from the reference's arguments
# (the arguments of ops/_ref/fill.py: filled, as each op's reference passes them).
FILLS = {
    "ZerosLike": lambda input, dtype=None: (input.shape, 0, _dtype_of(input, dtype)),
    "OnesLike": lambda input, dtype=None: (input.shape, 1, _dtype_of(input, dtype)),
    "FullLike": lambda input, fill_value, dtype=None: (
        input.shape, fill_value, _dtype_of(input, dtype)),
    "NewZeros": lambda input, size, dtype=None: (size, 0, _dtype_of(input, dtype)),
    "NewOnes": lambda input, size, dtype=None: (size, 1, _dtype_of(input, dtype)),
    "NewFull": lambda input, size, fill_value, dtype=None: (
        size, fill_value, _dtype_of(input, dtype)),
    "FillScalar": lambda size, fill_value, dtype=None: (size, fill_value, dtype),
    "Ones": lambda shape, type=None: (shape, 1, np.float32 if type is None else type),
    "Zeros": lambda shape, type=None: (shape, 0, np.float32 if type is None else type),
    # (zeros where MindSpore leaves the memory as it was, as the reference)
    "NewEmpty": lambda input, size, dtype=None, device=None: (
        size, 0, _dtype_of(input, dtype)),
}
ALIASES = {"ZerosLikeExt": "ZerosLike", "OnesLikeExt": "OnesLike"}


def fill_kernel(spec: Callable) -> Callable:
    """The cuda kernel of a fill op whose result is ``spec(*args)``: a
    fill value that is a tensor stays on the device."""
    def run(*args):
        shape, value, dtype = spec(*args)
        if device.is_device_array(value):
            return filled_from(shape, value, dtype)
        return filled(*fill_of(shape, value, dtype))
    return run


def eye(n, m, dtype):
    """Eye: the n x m identity made on the device."""
    out = device.empty((int(n), int(m)), np.dtype(dtype))
    if out.size:
        device.launch(_eye, out.size, out)
    return out


def dropout(x, keep_prob=0.5, Seed0=0, Seed1=0):
    """Dropout at inference: (x itself, a mask of ones in x's dtype)."""
    return x, filled(*fill_of(x.shape, 1, x.dtype))


def dropout_ext(input, p, seed, offset):
    """DropoutExt at inference: (input itself, every bit of the packed
    uint8 keep mask set)."""
    return input, filled(*fill_of((-(-input.size // 8),), 255, np.uint8))


KERNELS = {name: fill_kernel(spec) for name, spec in FILLS.items()}
KERNELS.update({alias: KERNELS[name] for alias, name in ALIASES.items()})
KERNELS.update({"FillV2": filled_from, "Eye": eye, "Dropout": dropout,
                "DropoutExt": dropout_ext, "Arange": arange, "Range": range_,
                "LinSpace": lin_space, "LinSpaceExt": lin_space_ext})
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [("fill, float32", _fill, "void(float32[::1], float32)"),
       ("fill, bool", _fill, "void(boolean[::1], boolean)"),
       ("fill from a device value, int64 to float32", _fill_from,
        "void(float32[::1], int64[::1])"),
       ("eye, float32", _eye, "void(float32[:, ::1])"),
       ("affine, float64 to float32", _affine, "void(float32[::1], float64, float64)"),
       ("affine, int64 to int32", _affine, "void(int32[::1], int64, int64)")]
