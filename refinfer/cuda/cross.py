"""The ``cuda`` kernel of Cross: a thread per output element, the two
products of the other components of its 3-vector read through the
operands' broadcast strides, in the operands' dtype as NumPy's cross
(integers wrap). Tensors of two dtypes, a Python-number operand, bool,
complex and uint64 decline, as does a dim the reference refuses.
Importing this module declares it."""
from __future__ import annotations

import math

import numpy as np

from refinfer import registry
from refinfer.ops.cross import FIRST_OF_LENGTH_3

from . import device
from .device import cuda
from .integer import broadcast_table
from .moments import offset


@device.jit
def _cross(a, b, table, inner, out):
    """out[o] = a_i b_j - a_j b_i, (c, i, j) a cyclic order of the three
    components along the axis whose elements lie ``inner`` apart, c o's
    (table rows: out's shape, a's and b's strides)."""
    for o in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        c = (o // inner) % 3
        base = o - c * inner
        i, j = base + (c + 1) % 3 * inner, base + (c + 2) % 3 * inner
        out[o] = (a[offset(i, table[0], table[1])] * b[offset(j, table[0], table[2])]
                  - a[offset(j, table[0], table[1])] * b[offset(i, table[0], table[2])])


def cross(input, other, dim=FIRST_OF_LENGTH_3):
    """Cross along dim (the default: the first axis of length 3)."""
    if not (device.is_device_array(input) and device.is_device_array(other)) \
            or input.dtype != other.dtype or np.dtype(input.dtype).kind not in "iuf" \
            or input.dtype == np.uint64:
        return None
    try:
        shape = np.broadcast_shapes(tuple(input.shape), tuple(other.shape))
    except ValueError:
        return None
    dim = int(dim)
    if dim == FIRST_OF_LENGTH_3:
        dim = next((k for k, n in enumerate(shape) if n == 3), -1)
    if not -len(shape) <= dim < len(shape) or shape[dim] != 3:
        return None
    out = device.empty(shape, input.dtype)
    device.launch(_cross, out.size, input.reshape(-1), other.reshape(-1),
                  broadcast_table(shape, tuple(input.shape), tuple(other.shape)),
                  math.prod(shape[dim % len(shape) + 1:]), out.reshape(-1))
    return out


KERNELS = {"Cross": cross}
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"cross, {dtype}", _cross,
        f"void({dtype}[::1], {dtype}[::1], int64[:, ::1], int64, {dtype}[::1])")
       for dtype in ("float32", "float64", "int8", "int64")]
