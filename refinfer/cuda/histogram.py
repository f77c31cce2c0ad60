"""The ``cuda`` kernel of Histogram: one thread per bin, each counting
the values of x that fall in it (every thread reads all of x: no atomics,
and the counts are exact; O(bins * n), meant for the summaries models
take of small tensors). Importing this module declares it."""
from __future__ import annotations

import numpy as np

from refinfer import registry

from . import device
from .device import cuda, dmath
from .layout import flat


@device.jit
def _histogram(values, low, high, own_range, out):
    """out[b] = how many values v (in float64) lie in [low, high] with
    floor((v - low) * bins / (high - low)) = b, the last bin taking
    v = high, NaN counted in bin 0; ``own_range``: low and high are the
    least and greatest values that are not NaN (NaN where every one is)."""
    bins = out.size
    for b in range(cuda.grid(1), bins, cuda.gridsize(1)):
        first, last = low, high
        if own_range:
            first = last = np.float64(np.nan)
            for j in range(values.size):
                v = np.float64(values[j])
                if v == v and (first != first or v < first):
                    first = v
                if v == v and (last != last or v > last):
                    last = v
        width, total = last - first, 0
        for j in range(values.size):
            v = np.float64(values[j])
            if not (first <= v <= last or v != v):
                continue
            where = 0
            if width != 0:
                at = dmath.floor((v - first) * bins / width)
                where = 0 if at != at else bins - 1 if at >= bins - 1 else int(at)
            if where == b:
                total += 1
        out[b] = total


def histogram(x, bins=100, min=0.0, max=0.0):
    """Histogram, x's dtype; declines float16 and the arguments the
    reference refuses (bins < 1, min > max)."""
    count, low, high = int(bins), float(min), float(max)
    if count < 1 or low > high or x.dtype not in (np.float32, np.int32):
        return None
    out = device.empty((count,), x.dtype)
    device.launch(_histogram, count, flat(x), low, high, low == high and x.size > 0,
                  out)
    return out


KERNELS = {"Histogram": histogram}
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"histogram, {dtype}", _histogram,
        f"void({dtype}[::1], float64, float64, boolean, {dtype}[::1])")
       for dtype in ("float32", "int32")]
