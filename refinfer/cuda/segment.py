"""The ``cuda`` kernels of the unsorted segment reductions
(UnsortedSegmentSum/Max/Min/Prod): one thread per output element, each
combining the rows whose segment id is its segment, in row order, so the
result is the same on every run (no atomics). Importing this module
declares them."""
from __future__ import annotations

import math

import numpy as np

from refinfer import registry

from . import device
from .device import cuda
from .fill import filled

SUM, MAXIMUM, MINIMUM, PRODUCT = range(4)


@device.jit
def _segments(rows, ids, op, empty, out, bad):
    """out[s, k] = the sum, maximum, minimum or product (``op``) of rows[j, k]
    over the j with ids[j] == s, ``empty`` where there is none (as NumPy's
    maximum/minimum, a NaN wins); bad[0] = 1 where an id is num_segments
    or more."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    width = out.shape[1]
    for i in range(start, out.size, stride):
        segment, k = i // width, i % width
        value = empty
        for j in range(ids.size):
            if ids[j] >= out.shape[0]:
                bad[0] = 1
            if ids[j] != segment:
                continue
            row = rows[j, k]
            if op == SUM:
                value += row
            elif op == PRODUCT:
                value *= row
            elif row != row or (row > value if op == MAXIMUM else row < value):
                value = row
        out[segment, k] = value


def _lowest(dtype):
    return np.finfo(dtype).min if dtype.kind == "f" else np.iinfo(dtype).min


def _highest(dtype):
    return np.finfo(dtype).max if dtype.kind == "f" else np.iinfo(dtype).max


# op -> (its code, the empty segment's value for a dtype), as the references.
VARIANTS = {"UnsortedSegmentSum": (SUM, lambda dtype: 0),
            "UnsortedSegmentMax": (MAXIMUM, _lowest),
            "UnsortedSegmentMin": (MINIMUM, _highest),
            "UnsortedSegmentProd": (PRODUCT, lambda dtype: 1)}


def segment_kernel(op: int, empty):
    """The cuda kernel of one unsorted segment reduction. Declines (the
    CPU kernel then gives the result or the reference's error) float16,
    ids that are not integers or do not lead input_x's shape, and ids of
    num_segments or more, found on the device (the flag read back, 4
    bytes, is the kernel's one wait for the device)."""
    def run(input_x, segment_ids, num_segments):
        lead = segment_ids.ndim
        if (input_x.dtype == np.float16 or segment_ids.dtype.kind not in "iu"
                or tuple(input_x.shape[:lead]) != tuple(segment_ids.shape)):
            return None
        count, width = int(num_segments), math.prod(input_x.shape[lead:])
        out = device.empty((count,) + tuple(input_x.shape[lead:]), input_x.dtype)
        if not out.size:
            return out
        bad = filled((1,), np.zeros((), np.int32))
        device.launch(_segments, out.size, input_x.reshape(segment_ids.size, width),
                      segment_ids.reshape(-1), op, input_x.dtype.type(empty(input_x.dtype)),
                      out.reshape(count, width), bad)
        return None if device.to_host(bad)[0] else out
    return run


KERNELS = {name: segment_kernel(*variant) for name, variant in VARIANTS.items()}
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"segments, {dtype}", _segments,
        f"void({dtype}[:, ::1], int32[::1], int64, {dtype}, {dtype}[:, ::1], int32[::1])")
       for dtype in ("float32", "int8", "int64")]
