"""The ``cuda`` kernels of the scans along one axis (CumSum, CumProd,
CumsumExt, Cummax, Cummin): one thread per line of the axis, the input
viewed as (outer, axis, inner), a running value carried along the line in
the output's dtype (integers wrap as the reference's do). float16
accumulates in float32, as the references (refinfer/cuda/half.py).
Importing this module declares them."""
from __future__ import annotations

import math

import numpy as np

from refinfer import registry
from refinfer.ops._ref.reduce import as_sum_dtype
from refinfer.ops._ref.search import one_axis

from . import device
from .device import cuda
from .half import in_float32

SUM, PRODUCT, MAXIMUM, MINIMUM = range(4)


@device.jit
def _scan(x, op, exclusive, reverse, identity, out, index):
    """out[o, :, n] = the running sum, product, maximum or minimum (``op``)
    of x[o, :, n], from the end with ``reverse``, each value left out of
    its own position with ``exclusive`` (the first is ``identity``). For
    the extremes index[o, i, n] is where the running value was found (the
    latest of equal values; a NaN, once met, stays)."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    length, inner = x.shape[1], x.shape[2]
    for line in range(start, x.shape[0] * inner, stride):
        o, n = line // inner, line % inner
        first = length - 1 if reverse else 0
        out[o, first, n] = x[o, first, n]
        running, at = out[o, first, n], first      # in the output's dtype
        if exclusive:
            out[o, first, n] = identity
        if op >= MAXIMUM:
            index[o, first, n] = first
        for step in range(1, length):
            i = length - 1 - step if reverse else step
            value = x[o, i, n]
            if exclusive:
                out[o, i, n] = running
            if op == SUM:
                running += value
            elif op == PRODUCT:
                running *= value
            else:
                take = value >= running if op == MAXIMUM else value <= running
                if (take or value != value) and running == running:
                    running, at = value, i
                index[o, i, n] = at
            if not exclusive:
                out[o, i, n] = running


def _lines(x, axis: int):
    """x viewed as (outer, axis, inner) lines along ``axis`` (a 0-d x: one
    line of one value)."""
    shape = tuple(x.shape) or (1,)
    return x.reshape(math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1:]))


def scan(x, axis, op: int, out_dtype=None, exclusive=False, reverse=False,
         index_dtype=None):
    """The running ``op`` of device array ``x`` along ``axis``: the output
    (and for the extremes its indices) as device arrays; None for float16
    (the kernels take it through half.in_float32)."""
    if x.dtype == np.float16:
        return None
    ax = one_axis(axis, x.ndim)
    out_dtype = np.dtype(out_dtype or x.dtype)
    out = device.empty(x.shape, out_dtype)
    # The sums and products write no indices: a one-element stand-in.
    index = device.empty(x.shape if index_dtype else (1,), index_dtype or np.int64)
    if out.size:
        identity = out_dtype.type(1 if op == PRODUCT else 0)
        lines = _lines(out, ax)
        device.launch(_scan, out.size // lines.shape[1], _lines(x, ax), op,
                      bool(exclusive), bool(reverse), identity, lines,
                      _lines(index, ax) if index_dtype else index.reshape(1, 1, 1))
    return out if index_dtype is None else (out, index)


def cumulative(op: int):
    """The cuda kernel of CumSum or CumProd."""
    def run(input, axis, exclusive=False, reverse=False):
        return scan(input, axis, op, None, exclusive, reverse)
    return run


def cumsum_ext(input, dim, dtype=None):
    """CumsumExt: the sum in as_sum_dtype's dtype; declined where that is
    not an exact cast of the input's (the CPU kernel then casts)."""
    target = as_sum_dtype(np.empty(0, input.dtype), dtype).dtype
    if not np.can_cast(input.dtype, target, "safe"):
        return None
    return scan(input, dim, SUM, target)


def running(op: int, index_dtype: str):
    """The cuda kernel of Cummax or Cummin: (values, indices)."""
    def run(input, axis):
        return scan(input, axis, op, index_dtype=index_dtype)
    return run


KERNELS = {"CumSum": cumulative(SUM), "CumProd": cumulative(PRODUCT),
           "CumsumExt": cumsum_ext, "Cummax": running(MAXIMUM, "int64"),
           "Cummin": running(MINIMUM, "int32")}
# float16 accumulates (or is compared) in float32, as the references.
KERNELS = {name: in_float32(kernel) for name, kernel in KERNELS.items()}
registry.declare_kernels("cuda", KERNELS)

_LINES = "{0}[:, :, ::1]"
# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"scan, {dtype} to {out}", _scan,
        f"void({_LINES.format(dtype)}, int64, boolean, boolean, {out},"
        f" {_LINES.format(out)}, {_LINES.format(index)})")
       for dtype, out, index in [("float32", "float32", "int64"),
                                 ("int8", "int8", "int32"),
                                 ("boolean", "int64", "int64")]]
