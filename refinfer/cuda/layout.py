"""Indexing shared by the device runners: how a kernel finds an element
of a C-contiguous tensor it reads as a flat device array (host side: the
offsets and strides a kernel gets; device side: the reads with their
bounds checks), so that no runner writes its own.

Every runner views its operands flat (``array.reshape(-1)``, a view of a
C-contiguous device array) and gets the geometry as integers and small
int64 arrays (:func:`refinfer.cuda.device.constant`): transposes,
broadcasts and batch axes become strides and offsets, never copies.
"""
from __future__ import annotations

import math

import numpy as np

from . import device
from .device import device_function


@device_function
def load(flat, base, i, j, rows, cols, row_stride, col_stride, zero):
    """Element (i, j) of the rows x cols matrix at ``base`` of ``flat``
    (element strides row_stride, col_stride), ``zero`` outside it (the
    edge of a tile)."""
    if i < rows and j < cols:
        return flat[base + i * row_stride + j * col_stride]
    return zero


@device_function
def offset(i, dims, strides):
    """The element offset of flat index i (C order) of an array of shape
    ``dims`` read with element ``strides``: a transpose, a broadcast
    (stride 0), a slice or a subset of axes of another array."""
    at = 0
    for d in range(dims.size - 1, -1, -1):
        at += (i % dims[d]) * strides[d]
        i //= dims[d]
    return at


def contiguous_strides(shape) -> tuple[int, ...]:
    """The element strides of a C-contiguous array of ``shape``."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= size
    return tuple(reversed(strides))


def batch_offsets(batch: tuple, operand_batch: tuple, matrix_size: int) -> np.ndarray:
    """For every index of the (broadcast) ``batch`` shape, in C order, the
    element offset of the operand's matrix, the operand having batch axes
    ``operand_batch`` that broadcast to ``batch``, each matrix
    ``matrix_size`` elements long."""
    count = math.prod(operand_batch)
    starts = np.arange(count, dtype=np.int64).reshape(operand_batch) * matrix_size
    lead = (1,) * (len(batch) - len(operand_batch))
    return np.broadcast_to(starts.reshape(lead + operand_batch), batch).reshape(-1)


def split_axes(shape: tuple, axes) -> tuple:
    """(kept dims, kept strides, reduced dims, reduced strides) of a
    C-contiguous array of ``shape`` split into the axes kept and those in
    ``axes``, as device constants for :func:`offset` (an empty set of
    axes is one axis of 1)."""
    strides = contiguous_strides(shape)
    kept = [a for a in range(len(shape)) if a not in axes]
    parts = []
    for chosen in (kept, sorted(axes)):
        parts += [device.constant([shape[a] for a in chosen] or [1]),
                  device.constant([strides[a] for a in chosen] or [0])]
    return tuple(parts)


def broadcast_strides(operand_shape: tuple, shape: tuple):
    """The element strides (device constant) with which a C-contiguous
    operand of ``operand_shape`` broadcasts against ``shape`` (NumPy's
    rule: aligned on the right, 0 along the axes it broadcasts over), for
    :func:`offset` over ``shape``."""
    lead = len(shape) - len(operand_shape)
    own = contiguous_strides(operand_shape)
    return device.constant([0 if a < lead or operand_shape[a - lead] == 1
                            else own[a - lead] for a in range(len(shape))] or [0])


def flat(array):
    """A C-contiguous device array as one axis (a view)."""
    return array.reshape(array.size) if array.ndim != 1 else array
