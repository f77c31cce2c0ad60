"""The ``cuda`` kernels of the complex ops: Real, Imag, Conj, Angle and
ComplexAbs (a part of each element, by op code), Complex and Polar (a
complex number of two broadcast real operands). complex64 computes in
float32, complex128 in float64, as NumPy's references do.

A real tensor is its own real part, conjugate and (for ComplexAbs) |x|,
with a zero imaginary part and an angle of 0 or pi, as the references
answer; Real and Conj then return a copy, never the input itself (the
plan may reuse an input's buffer after its last reader). Angle of an
integer tensor (the reference's angle cast back to integers) and
float16 decline. Importing this module declares them."""
from __future__ import annotations

import numpy as np

from refinfer import registry

from . import device
from .device import cuda, dmath
from .integer import broadcast_table
from .moments import offset

REAL, IMAG, ANGLE, ABS = range(4)
COMPLEX, POLAR = range(2)
COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
              np.dtype(np.float64): np.dtype(np.complex128)}
PARTS = tuple(COMPLEX_OF.values())      # complex dtypes whose parts are taken
REALS = tuple(COMPLEX_OF)


@device.jit
def _part(x, op, out):
    """out[i] = the real part, imaginary part, argument or modulus of
    x[i] (x complex or real; out real)."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        v = x[i]
        if op == REAL:
            out[i] = v.real
        elif op == IMAG:
            out[i] = v.imag
        elif op == ANGLE:
            out[i] = dmath.atan2(v.imag, v.real)
        else:
            out[i] = abs(v)


@device.jit
def _conjugate(x, out):
    """out[i] = the complex conjugate of x[i]."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = x[i].conjugate()


@device.jit
def _make(a, b, table, op, out):
    """out[o] = a + i b (COMPLEX) or a (cos b + i sin b) (POLAR) at o's
    broadcast offsets (table rows: out's shape, a's and b's strides)."""
    for o in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        x, y = a[offset(o, table[0], table[1])], b[offset(o, table[0], table[2])]
        if op == COMPLEX:
            out[o] = complex(x, y)
        else:
            out[o] = complex(x * dmath.cos(y), x * dmath.sin(y))


def part(op: int):
    """The kernel of Real, Imag, Angle or ComplexAbs: the part of each
    element in the real dtype of input's."""
    def run(input):
        dtype = np.dtype(input.dtype)
        if dtype not in PARTS and (dtype not in REALS or op in (REAL, IMAG)):
            return None         # (Real's and Imag's kernels take real tensors)
        out = device.empty(tuple(input.shape), np.zeros(0, dtype).real.dtype)
        if out.size:
            device.launch(_part, out.size, input.reshape(-1), op, out.reshape(-1))
        return out
    return run


def real(input):
    """Real: a copy of a real tensor; the real parts of a complex one."""
    if np.dtype(input.dtype) in PARTS:
        return part(REAL)(input)
    return device.copy(input)


def imag(input):
    """Imag: zeros of a real tensor's dtype; the imaginary parts of a
    complex one."""
    if np.dtype(input.dtype) in PARTS:
        return part(IMAG)(input)
    return device.zeros(tuple(input.shape), input.dtype)


def conj(input):
    """Conj: the conjugates of a complex tensor; a copy of a real one."""
    if np.dtype(input.dtype) not in PARTS:
        return device.copy(input)
    out = device.empty(tuple(input.shape), input.dtype)
    if out.size:
        device.launch(_conjugate, out.size, input.reshape(-1), out.reshape(-1))
    return out


def make(op: int):
    """The kernel of Complex or Polar: two real operands of one dtype
    (float32 or float64), broadcast; other dtypes decline (the reference
    raises or, for Polar, refuses them too)."""
    def run(a, b):
        if not (device.is_device_array(a) and device.is_device_array(b)) \
                or a.dtype != b.dtype or np.dtype(a.dtype) not in REALS:
            return None
        try:
            shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
        except ValueError:
            return None
        out = device.empty(shape, COMPLEX_OF[np.dtype(a.dtype)])
        if out.size:
            device.launch(_make, out.size, a.reshape(-1), b.reshape(-1),
                          broadcast_table(shape, tuple(a.shape), tuple(b.shape)), op,
                          out.reshape(-1))
        return out
    return run


KERNELS = {"Real": real, "Imag": imag, "Conj": conj, "Angle": part(ANGLE),
           "ComplexAbs": part(ABS), "Complex": make(COMPLEX), "Polar": make(POLAR)}
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"complex part, {x} to {out}", _part, f"void({x}[::1], int64, {out}[::1])")
       for x, out in [("complex64", "float32"), ("complex128", "float64"),
                      ("float32", "float32")]]
PTX += [(f"conjugate, {x}", _conjugate, f"void({x}[::1], {x}[::1])")
        for x in ("complex64", "complex128")]
PTX += [(f"complex of two reals, {x}", _make,
         f"void({x}[::1], {x}[::1], int64[:, ::1], int64, {out}[::1])")
        for x, out in [("float32", "complex64"), ("float64", "complex128")]]
