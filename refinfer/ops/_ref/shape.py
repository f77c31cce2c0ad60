"""Splits and transposes shared by several shape ops."""
from __future__ import annotations

import numpy as np

from .search import one_axis


def axis_length(input: np.ndarray, dim) -> tuple[int, int]:
    """(dim checked and wrapped into [0, rank), that axis's length); a 0-d
    input has one axis of length 1, as its one element."""
    axis = one_axis(dim, input.ndim)
    return axis, input.shape[axis] if input.ndim else 1


def split_sizes(input: np.ndarray, sizes, dim) -> tuple[np.ndarray, ...]:
    """Copies of the pieces of ``input`` along dim with the given lengths
    (SplitWithSize, SplitTensor, Chunk): y[k] = input[..., o_k:o_k +
    sizes[k], ...], o_k the sum of the earlier lengths, which must add up
    to the axis length."""
    dim, length = axis_length(input, dim)
    if sum(sizes) != length or min(sizes, default=0) < 0:
        raise ValueError(f"SplitWithSize: sizes {sizes} do not add up "
                         f"to axis {dim} of length {length}")
    cuts = np.cumsum(sizes)[:-1]
    return tuple(part.copy() for part in np.split(input, cuts, axis=dim))


def even_sizes(length: int, size: int) -> list[int]:
    """Pieces of ``size`` covering ``length``, the last one shorter; one
    empty piece for an empty axis (SplitTensor, Chunk)."""
    sizes = [size] * (length // size)
    if length % size or not sizes:
        sizes.append(length % size)
    return sizes


def transposed(input: np.ndarray, dims) -> np.ndarray:
    """np.transpose(input, dims) as a C-contiguous copy (Transpose,
    TransposeView); dims must name every axis."""
    if len(dims) != input.ndim:
        raise ValueError(f"Transpose: dims {dims} for rank {input.ndim}")
    return np.transpose(input, dims).copy()  # C-contiguous, keeps 0-d
