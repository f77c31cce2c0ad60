"""The ``cuda`` kernels of the comparisons and logical ops: Greater,
GreaterEqual, Less, LessEqual, Equal, NotEqual, LogicalAnd, LogicalOr,
LogicalXor, LogicalNot, IsNan, IsInf, IsFinite, IsNegInf and
CheckNumerics, declared in :data:`KERNELS`: one kernel of a bool result over two operands
broadcast through their strides (layout.broadcast_strides), the test an
op code.

Comparisons compare the operands promoted as the references promote them
(ops/_ref/common.promote, asked on one-element samples of the tensors):
a tensor whose dtype that changes (int32 beside float32, integers beside
a float number) is cast on the device by Cast's kernel first, a Python
number is handed over as a one-element array of the promoted dtype (an
int wraps); complex operands decline. Logical ops take any dtypes
(nonzero, NaN included, is True). The float tests of an integer or bool
tensor are the reference's constants (IsFinite True, the others False).
CheckNumerics is the IsFinite test of every element, one flag read back.
"""
from __future__ import annotations

import numba
import numpy as np

from refinfer import registry
from refinfer.ops._ref.common import promote

from . import device
from .device import cuda, device_function
from .fill import filled
from .index import cast
from .integer import sample
from .layout import broadcast_strides, flat, offset

(GREATER, GREATER_EQUAL, LESS, LESS_EQUAL, EQUAL, NOT_EQUAL, AND, OR, XOR,
 NOT, IS_NAN, IS_INF, IS_FINITE, IS_NEG_INF) = range(14)


@device_function
def _test(op, a, b):
    """The op's test of a (and b)."""
    if op == GREATER:
        return a > b
    if op == GREATER_EQUAL:
        return a >= b
    if op == LESS:
        return a < b
    if op == LESS_EQUAL:
        return a <= b
    if op == EQUAL:
        return a == b
    if op == NOT_EQUAL:
        return a != b
    if op == AND:
        return a != 0 and b != 0
    if op == OR:
        return a != 0 or b != 0
    if op == XOR:
        return (a != 0) != (b != 0)
    if op == NOT:
        return a == 0
    if op == IS_NAN:
        return a != a
    infinite = a - a != a - a and a == a     # inf - inf is NaN
    if op == IS_INF:
        return infinite
    if op == IS_FINITE:
        return a == a and not infinite
    return infinite and a < 0                # IS_NEG_INF


@device.jit
def test_kernel(a, b, out, dims, a_strides, b_strides, op):
    """out[i] = the op's test of a and b, both broadcast to out's shape."""
    for i in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[i] = _test(op, a[offset(i, dims, a_strides)], b[offset(i, dims, b_strides)])


@device.jit
def any_not_finite(x, found):
    """found[0] = 1 where some element of x is NaN or infinite."""
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        if not _test(IS_FINITE, x[i], x[i]):
            found[0] = 1


def ptx_kernels() -> list[tuple]:
    """(name, Python function, argument types) of the kernels for
    tools/check_ptx.py: float32, float16, and int32 against bool operands."""
    f32, i64 = numba.float32[::1], numba.int64[::1]
    f16, out = numba.from_dtype(np.float16)[::1], numba.boolean[::1]
    return [("logic test, float32", test_kernel.py_func,
             (f32, f32, out, i64, i64, i64, numba.int64)),
            ("logic test, float16", test_kernel.py_func,
             (f16, f16, out, i64, i64, i64, numba.int64)),
            ("logic test, int32 and bool", test_kernel.py_func,
             (numba.int32[::1], numba.boolean[::1], out, i64, i64, i64, numba.int64)),
            ("any not finite, float32", any_not_finite.py_func,
             (f32, numba.int32[::1])),
            ("any not finite, float16", any_not_finite.py_func,
             (f16, numba.int32[::1]))]


def _run(op, a, b):
    """The op's bool result of device arrays a and b; None where their
    shapes do not broadcast."""
    try:
        shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    except ValueError:
        return None
    out = device.empty(shape, np.bool_)
    if out.size:
        device.launch(test_kernel, out.size, flat(a), flat(b), flat(out),
                      device.constant(shape or (1,)),
                      broadcast_strides(tuple(a.shape), shape),
                      broadcast_strides(tuple(b.shape), shape), op)
    return out


def _promoted(value, promoted: np.ndarray):
    """A comparison's operand as a device array of the promoted dtype:
    a tensor cast on the device where its dtype changes (None where the
    cast declines), a number as a one-element array."""
    if not device.is_device_array(value):
        return device.to_device(np.asarray(promoted).reshape(1))
    return value if value.dtype == promoted.dtype else cast(value, promoted.dtype)


def comparison(op: int):
    """Greater ... NotEqual: the promoted operands compared."""
    def run(input, other):
        operands = (input, other)
        if not any(map(device.is_device_array, operands)) or any(
                type(v) not in (int, float, bool) for v in operands
                if not device.is_device_array(v)):
            return None
        promoted = promote(*map(sample, operands))
        a, b = (_promoted(v, p) for v, p in zip(operands, promoted))
        return None if a is None or b is None else _run(op, a, b)
    return run


def logical(op: int):
    """LogicalAnd / LogicalOr / LogicalXor of two tensors (any dtypes)."""
    def run(x, y):
        if not (device.is_device_array(x) and device.is_device_array(y)):
            return None
        return _run(op, x, y)
    return run


def unary(op: int):
    """LogicalNot and the float tests (of an integer or bool tensor: their
    constant, IsFinite's True)."""
    def run(x):
        if not device.is_device_array(x) or x.dtype.kind == "c":
            return None
        if op != NOT and x.dtype.kind != "f":
            return filled(tuple(x.shape), np.asarray(op == IS_FINITE))
        return _run(op, x, x)
    return run


def check_numerics(x):
    """CheckNumerics: x itself once the device found no NaN or infinity in
    it (the flag read back, 4 bytes, is the kernel's one wait for the
    device); declines where it found one, so the reference raises its
    error naming how many and where. Integer and bool tensors hold
    neither: x itself."""
    if x.dtype.kind in "biu":
        return x
    if x.dtype.kind != "f":
        return None
    if x.size:
        found = filled((1,), np.zeros((), np.int32))
        device.launch(any_not_finite, x.size, flat(x), found)
        if device.to_host(found)[0]:
            return None
    return x


KERNELS = {"Greater": comparison(GREATER), "GreaterEqual": comparison(GREATER_EQUAL),
           "Less": comparison(LESS), "LessEqual": comparison(LESS_EQUAL),
           "Equal": comparison(EQUAL), "NotEqual": comparison(NOT_EQUAL),
           "LogicalAnd": logical(AND), "LogicalOr": logical(OR),
           "LogicalXor": logical(XOR), "LogicalNot": unary(NOT),
           "IsNan": unary(IS_NAN), "IsInf": unary(IS_INF),
           "IsFinite": unary(IS_FINITE), "IsNegInf": unary(IS_NEG_INF),
           "CheckNumerics": check_numerics}
registry.declare_kernels("cuda", KERNELS)
