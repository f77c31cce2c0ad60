"""Walking a broadcast in contiguous pieces: the one walker of the compiled
runners of _kernels/program.py (elementwise programs) and
_kernels/logic.py (comparison, division, select).

:func:`plan` merges the output's axes where every operand steps alike, so
that any broadcast is rows of a last merged axis; a runner cuts the output
into pieces of up to ``chunk`` elements: whole rows when rows are shorter,
else part of one row. The output is C-contiguous, so a piece is one
contiguous span of it. An operand's values for a piece are read in place
where they are contiguous too (an operand of the output's shape, or a piece
within one row of an operand that steps along rows); a constant operand is
a buffer filled once; any other is copied row by row into a buffer (in
cache). So every inner loop reads contiguous memory and vectorises. A call
between kernels with array arguments costs 25-50 ns (Numba does not inline
it): a few per piece, none per row.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from refinfer.jit import kernel

# How a runner reads an operand (:func:`mode`).
FULL, CONSTANT, OTHER = range(3)


@lru_cache(maxsize=4096)
def plan(shapes: tuple, chunk: int) -> tuple:
    """How to walk the broadcast of operands of these shapes in pieces of
    up to ``chunk`` elements: (output shape, dims, steps, piece count).
    ``dims`` are the output's axes with its length-1 axes dropped and
    neighbours merged where every operand steps alike (so (8, 12, 128, 128)
    beside (8, 1, 1, 128) gives (8, 1536, 128)); steps (n_operands + 1,
    len(dims)) are each operand's element strides along them, 0 where it
    is broadcast, then the (C-contiguous) output's. Raises ValueError for
    shapes that do not broadcast, as NumPy."""
    ndim = max(len(s) for s in shapes)
    out = tuple(np.broadcast_shapes(*shapes))
    padded = [(1,) * (ndim - len(s)) + tuple(s) for s in shapes] + [out]
    axes = [k for k in range(ndim) if out[k] != 1]
    strides = [[math.prod(p[k + 1:]) if p[k] != 1 else 0 for k in axes] for p in padded]
    dims = [out[k] for k in axes]
    for k in range(len(dims) - 1, 0, -1):         # merge axis k into k - 1
        if all(s[k - 1] == s[k] * dims[k] for s in strides):
            dims[k - 1] *= dims.pop(k)
            for s in strides:
                s.pop(k - 1)
    if not dims:
        dims, strides = [1], [[0] for _ in padded]
    return (out, np.array(dims, np.int64), np.array(strides, np.int64),
            _piece_count(dims, chunk))


def _piece_count(dims: list, chunk: int) -> int:
    """The number of pieces of an output of merged dims (see :func:`piece`)."""
    rows, cols = math.prod(dims[:-1]), dims[-1]
    if rows * cols == 0:
        return 0
    if cols >= chunk:
        return rows * -(-cols // chunk)
    return -(-rows // (chunk // cols))


@kernel
def piece(t, dims, chunk):
    """Piece t: (first row, rows, first column, columns); its rows * columns
    elements start at first row * dims[-1] + first column of the output."""
    cols, rows = dims[-1], 1
    for d in range(dims.size - 1):
        rows *= dims[d]
    if cols >= chunk:
        row, part = divmod(t, (cols + chunk - 1) // chunk)
        return row, 1, part * chunk, min(chunk, cols - part * chunk)
    per_piece = chunk // cols
    return t * per_piece, min(per_piece, rows - t * per_piece), 0, cols


@kernel
def buffer_size(dims, chunk):
    """The elements of the largest piece."""
    return chunk if dims[-1] >= chunk else chunk // dims[-1] * dims[-1]


@kernel
def mode(i, steps):
    """How operand i is read: FULL when it steps like the output (steps'
    last row), CONSTANT when it never moves, else OTHER."""
    full = constant = True
    for d in range(steps.shape[1]):
        full &= steps[i, d] == steps[-1, d]
        constant &= steps[i, d] == 0
    return FULL if full else (CONSTANT if constant else OTHER)


@kernel
def buffer(src, i, steps, size):
    """(mode, buffer of ``size`` elements) of operand i; a CONSTANT
    operand's buffer holds its value."""
    how = mode(i, steps)
    buf = np.empty(size, src.dtype)
    if how == CONSTANT:
        buf[:] = src[0]
    return how, buf


@kernel
def operand(src, i, how, dims, steps, part, index, buf):
    """(array, offset) where operand i's values for piece ``part`` lie
    contiguously: in ``src``, or in ``buf`` (copied now; index: scratch,
    one entry per axis)."""
    at = _in_place(i, how, dims, steps, part, index)
    if at >= 0:
        return src, at
    if how == OTHER:
        gather(src, i, dims, steps, part, index, buf, 0)
    return buf, 0


@kernel
def _in_place(i, how, dims, steps, part, index):
    """The offset in operand i of its values for a piece when they lie
    there contiguously, else -1."""
    row, rows, c0, _ = part
    if how == FULL:
        return row * dims[-1] + c0
    if how == OTHER and rows == 1 and steps[i, dims.size - 1]:
        return _row_offset(i, dims, steps, row, index) + c0
    return -1


@kernel
def _row_offset(i, dims, steps, row, index):
    """Operand i's offset at the start of output row ``row``; ``index``
    gets the row's position along each axis but the last."""
    offset = 0
    for d in range(dims.size - 2, 0, -1):
        row, k = divmod(row, dims[d])
        index[d] = k
        offset += k * steps[i, d]
    if dims.size > 1:               # what is left of row is its first index
        index[0] = row
        offset += row * steps[i, 0]
    return offset


@kernel
def gather(src, i, dims, steps, part, index, buf, start):
    """Copy operand i's values for a piece into ``buf`` from ``start`` on,
    row after row."""
    row, rows, c0, m = part
    offset = _row_offset(i, dims, steps, row, index)
    step = steps[i, dims.size - 1]
    at = np.uint64(start)
    for _ in range(rows):
        if step:
            base = np.uint64(offset + c0)
            for j in range(np.uint64(m)):
                buf[at + j] = src[base + j]
        else:
            value = src[offset]
            for j in range(np.uint64(m)):
                buf[at + j] = value
        at += np.uint64(m)
        d = dims.size - 2                 # the next row: an odometer
        while d >= 0:
            index[d] += 1
            offset += steps[i, d]
            if index[d] < dims[d]:
                break
            offset -= steps[i, d] * dims[d]
            index[d] = 0
            d -= 1
