"""The ``cuda`` kernel of NextAfter: a step of one unit in the last place,
taken on the bit pattern (an integer view of the same memory): away from
zero (+1) where x moves away from 0 toward y, toward it (-1) else; from 0,
the smallest subnormal with y's sign; y itself where x == y, NaN where
either is. float32 and float64 tensors of one dtype (a Python number is
converted to it, as the reference promotes it); the rest declines.
Importing this module declares it."""
from __future__ import annotations

import numpy as np

from refinfer import registry

from . import device
from .device import cuda
from .integer import broadcast_table
from .moments import offset

BITS = {np.dtype(np.float32): np.dtype(np.int32), np.dtype(np.float64): np.dtype(np.int64)}


@device.jit
def _next_after(x, y, x_bits, table, negative_tiny, out, out_bits):
    """out[o] = nextafter(x, y) at o's broadcast offsets (table rows: out's
    shape, x's and y's strides); x_bits and out_bits: integer views of x
    and out; negative_tiny: the pattern of the negative smallest
    subnormal."""
    for o in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        at = offset(o, table[0], table[1])
        a, b = x[at], y[offset(o, table[0], table[2])]
        if a != a or b != b:
            out[o] = a + b
        elif a == b:
            out[o] = b
        elif a == 0:
            out_bits[o] = 1 if b > 0 else negative_tiny
        elif (a < b) == (a > 0):
            out_bits[o] = x_bits[at] + 1
        else:
            out_bits[o] = x_bits[at] - 1


def next_after(input, other):
    """NextAfter of device arrays (other may be a Python number)."""
    if not device.is_device_array(input) or np.dtype(input.dtype) not in BITS:
        return None
    dtype = np.dtype(input.dtype)
    if not device.is_device_array(other):
        if not isinstance(other, (int, float)) or isinstance(other, bool):
            return None
        other = device.to_device(np.asarray(other, dtype))
    if other.dtype != dtype:
        return None
    try:
        shape = np.broadcast_shapes(tuple(input.shape), tuple(other.shape))
    except ValueError:
        return None
    out = device.empty(shape, dtype)
    if out.size:
        bits = BITS[dtype]
        flat = input.reshape(-1)
        negative_tiny = np.asarray(-np.finfo(dtype).smallest_subnormal, dtype).view(bits)
        device.launch(_next_after, out.size, flat, other.reshape(-1), flat.view(bits),
                      broadcast_table(shape, tuple(input.shape), tuple(other.shape)),
                      negative_tiny[()], out.reshape(-1), out.reshape(-1).view(bits))
    return out


KERNELS = {"NextAfter": next_after}
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"next after, {dtype}", _next_after,
        f"void({dtype}[::1], {dtype}[::1], {bits}[::1], int64[:, ::1], {bits},"
        f" {dtype}[::1], {bits}[::1])")
       for dtype, bits in [("float32", "int32"), ("float64", "int64")]]
