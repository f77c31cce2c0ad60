"""The ``cuda`` kernels of the segment reductions: the unsorted ones
(UnsortedSegmentSum/Max/Min/Prod) and the sorted ones (SegmentSum/Max/
Min/Mean/Prod): one thread per output element, each combining the rows
whose segment id is its segment, in row order, so the result is the same
on every run (no atomics). Importing this module declares them."""
from __future__ import annotations

import math

import numpy as np

from refinfer import registry
from refinfer.ops._ref.indexing import highest, lowest

from . import device
from .device import cuda
from .fill import filled

SUM, MAXIMUM, MINIMUM, PRODUCT, MEAN = range(5)


@device.jit
def _segments(rows, ids, op, start, none, out, bad):
    """out[s, k] = the sum, maximum, minimum, product or mean (``op``) of
    rows[j, k] over the j with ids[j] == s, from ``start`` (as NumPy's
    maximum/minimum, a NaN wins; a mean is the sum over the count in
    float64, cast to out's dtype, an integer truncated toward zero);
    ``none`` where no id names s; bad[0] = 1 where an id is num_segments
    or more."""
    first, stride = cuda.grid(1), cuda.gridsize(1)
    width = out.shape[1]
    for i in range(first, out.size, stride):
        segment, k = i // width, i % width
        value, count = start, 0
        for j in range(ids.size):
            if ids[j] >= out.shape[0]:
                bad[0] = 1
            if ids[j] != segment:
                continue
            row = rows[j, k]
            count += 1
            if op == SUM or op == MEAN:
                value += row
            elif op == PRODUCT:
                value *= row
            elif row != row or (row > value if op == MAXIMUM else row < value):
                value = row
        out[segment, k] = none if count == 0 else value
        if op == MEAN and count:    # the sum stored first: an integer one wraps
            out[segment, k] = out[segment, k] / np.float64(count)


@device.jit
def _check_sorted(ids, found):
    """found[0] = 1 where ids (non-empty) has a negative first id or an id
    below the one before it; found[1] = the last id (the segment count
    less one)."""
    for j in range(cuda.grid(1), ids.size, cuda.gridsize(1)):
        if (j == 0 and ids[0] < 0) or (j > 0 and ids[j] < ids[j - 1]):
            found[0] = 1
        if j == ids.size - 1:
            found[1] = ids[j]


def _accepted(input_x, segment_ids, lead: int) -> bool:
    """Whether the kernel takes these arguments: not float16, integer ids
    that lead input_x's shape."""
    return (input_x.dtype != np.float16 and segment_ids.dtype.kind in "iu"
            and tuple(input_x.shape[:lead]) == tuple(segment_ids.shape))


def _reduce(input_x, segment_ids, count: int, op: int, start, none):
    """``count`` segments of the rows of input_x (the leading axes of
    segment_ids as one), or None where an id is ``count`` or more (found
    on the device: the flag read back, 4 bytes, is a wait for it)."""
    lead = segment_ids.ndim
    width = math.prod(input_x.shape[lead:])
    out = device.empty((count,) + tuple(input_x.shape[lead:]), input_x.dtype)
    if not out.size:
        return out
    bad = filled((1,), np.zeros((), np.int32))
    dtype = input_x.dtype.type
    device.launch(_segments, out.size, input_x.reshape(segment_ids.size, width),
                  segment_ids.reshape(segment_ids.size), op, dtype(start), dtype(none),
                  out.reshape(count, width), bad)
    return None if device.to_host(bad)[0] else out


# op -> (its code, the start of a segment's reduction for a dtype), as the
# references; an unsorted reduction's empty segment keeps its start.
VARIANTS = {"UnsortedSegmentSum": (SUM, lambda dtype: 0),
            "UnsortedSegmentMax": (MAXIMUM, lowest),
            "UnsortedSegmentMin": (MINIMUM, highest),
            "UnsortedSegmentProd": (PRODUCT, lambda dtype: 1)}
# op -> (its code, the start, an empty segment's value).
SORTED = {"SegmentSum": (SUM, lambda dtype: 0, 0),
          "SegmentMax": (MAXIMUM, lowest, 0),
          "SegmentMin": (MINIMUM, highest, 0),
          "SegmentMean": (MEAN, lambda dtype: 0, 0),
          "SegmentProd": (PRODUCT, lambda dtype: 1, 1)}


def segment_kernel(op: int, start):
    """The cuda kernel of one unsorted segment reduction. Declines (the
    CPU kernel then gives the result or the reference's error) float16,
    ids that are not integers or do not lead input_x's shape, and ids of
    num_segments or more."""
    def run(input_x, segment_ids, num_segments):
        if not _accepted(input_x, segment_ids, segment_ids.ndim):
            return None
        first = start(input_x.dtype)
        return _reduce(input_x, segment_ids, int(num_segments), op, first, first)
    return run


def sorted_segment_kernel(op: int, start, empty):
    """The cuda kernel of one sorted segment reduction: the segment count
    is the last id + 1, a value of the data (segment_ids[-1], read back
    with the flag of a check that the ids ascend from 0 or more: 16 bytes,
    the kernel's one wait for the device); declines what the unsorted
    kernels do, ids that are not 1-D or do not ascend from 0 (the
    reference raises)."""
    def run(input_x, segment_ids):
        if segment_ids.ndim != 1 or not input_x.ndim \
                or not _accepted(input_x, segment_ids, 1):
            return None
        count = 0
        if segment_ids.size:
            found = filled((2,), np.zeros((), np.int64))
            device.launch(_check_sorted, segment_ids.size, segment_ids, found)
            bad, last = device.to_host(found)
            if bad:
                return None
            count = int(last) + 1
        return _reduce(input_x, segment_ids, count, op, start(input_x.dtype), empty)
    return run


KERNELS = {name: segment_kernel(*variant) for name, variant in VARIANTS.items()}
KERNELS.update({name: sorted_segment_kernel(*variant)
                for name, variant in SORTED.items()})
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"segments, {dtype}", _segments,
        f"void({dtype}[:, ::1], int32[::1], int64, {dtype}, {dtype}, {dtype}[:, ::1],"
        f" int32[::1])")
       for dtype in ("float32", "int8", "int64")]
PTX += [(f"check sorted, {dtype}", _check_sorted, f"void({dtype}[::1], int64[::1])")
        for dtype in ("int32", "int64")]
