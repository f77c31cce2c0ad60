"""The ``cuda`` kernels of the linear-algebra family: one thread per matrix
of the batch (models hold small matrices), every matrix copied first into
a float64 work array, the decompositions computed there and the results
rounded to the reference's dtype, as LAPACK-accurate as the references.

- LU with partial pivoting (LAPACK's getrf: the first row of the largest
  magnitude) gives MatrixDeterminant, LogMatrixDeterminant (sign * exp of
  the sum of log |pivot|, as NumPy's det), MatrixInverse, MatrixSolve and
  the solves of CholeskySolve, CholeskyInverse and Lstsq (their products
  A = L L^T, A^T A by refinfer/cuda/gemm.py).
- Substitution gives MatrixTriangularSolve and SolveTriangular.
- MatrixPower multiplies by gemm.py's kernel in NumPy's order (binary
  powers), a negative power starting from the LU inverse; Pdist is one
  thread per pair of rows in the input's dtype.

A matrix the reference finds singular (an exact zero pivot, a zero on a
triangle's diagonal) sets a flag, read back, and the kernel declines: the
reference raises its own error. float16, empty matrices and shapes the
reference refuses decline too. Importing this module declares the kernels.
"""
from __future__ import annotations

import math

import numpy as np

from refinfer import registry

from . import device, fill, gemm, index
from .device import cuda, dmath
from .layout import batch_offsets, flat

WORK = np.dtype(np.float64)
FLOAT_TYPES = (np.dtype(np.float32), np.dtype(np.float64))
ALL, LOWER, UPPER = 0, 1, 2     # the part of a matrix _load keeps


@device.jit
def _load(x, starts, row_stride, col_stride, part, unit, work):
    """work[b, i, j] = the matrix of x at starts[b] (element strides
    row_stride, col_stride), only its lower or upper triangle (``part``)
    and 1 on the diagonal when ``unit``."""
    rows, cols = work.shape[1], work.shape[2]
    for e in range(cuda.grid(1), work.size, cuda.gridsize(1)):
        b, i, j = e // (rows * cols), e // cols % rows, e % cols
        value = 0.0
        if part == ALL or (part == LOWER and j <= i) or (part == UPPER and j >= i):
            value = x[starts[b] + i * row_stride + j * col_stride]
        work[b, i, j] = 1.0 if unit and i == j else value


@device.jit
def _lu_factor(a, shift, pivots, det, sign, log_abs, singular):
    """LAPACK's getrf on each a[b] + shift * I, in place (the unit lower
    factor below the diagonal, the upper on and above it; pivots[b, j] the
    row swapped with row j); det, sign and log |det| as NumPy's slogdet
    (a zero pivot: sign 0, -inf) and det = sign * exp(log |det|), as
    NumPy's det; singular[0] = 1 where a pivot is zero."""
    n = a.shape[1]
    for b in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):
        for i in range(n):
            a[b, i, i] += shift
        signum, logs = 1.0, 0.0
        for j in range(n):
            p = j
            for i in range(j + 1, n):
                if abs(a[b, i, j]) > abs(a[b, p, j]):
                    p = i
            pivots[b, j] = p
            if p != j:
                signum = -signum
                for c in range(n):
                    a[b, j, c], a[b, p, c] = a[b, p, c], a[b, j, c]
            pivot = a[b, j, j]
            if pivot == 0.0:
                signum = 0.0
                singular[0] = 1
                continue
            if pivot < 0.0:
                signum = -signum
            logs += dmath.log(abs(pivot))
            for i in range(j + 1, n):
                a[b, i, j] /= pivot
                for c in range(j + 1, n):
                    a[b, i, c] -= a[b, i, j] * a[b, j, c]
        log_abs[b] = logs if signum != 0.0 else -math.inf
        sign[b] = signum
        det[b] = signum * dmath.exp(logs) if signum != 0.0 else 0.0


@device.jit
def _lu_solve(a, pivots, x):
    """x[b] = the solution of A y = x[b] given A's getrf factors a[b] and
    pivots[b], in place."""
    n, k = a.shape[1], x.shape[2]
    for b in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):
        for j in range(n):
            p = pivots[b, j]
            if p != j:
                for c in range(k):
                    x[b, j, c], x[b, p, c] = x[b, p, c], x[b, j, c]
        for c in range(k):
            for i in range(n):
                for t in range(i):
                    x[b, i, c] -= a[b, i, t] * x[b, t, c]
            for i in range(n - 1, -1, -1):
                for t in range(i + 1, n):
                    x[b, i, c] -= a[b, i, t] * x[b, t, c]
                x[b, i, c] /= a[b, i, i]


@device.jit
def _substitute(t, x, lower, singular):
    """x[b] = the solution of T y = x[b] for the lower (``lower``) or upper
    triangular t[b], by substitution in place; singular[0] = 1 where a
    diagonal entry is zero."""
    n, k = t.shape[1], x.shape[2]
    for b in range(cuda.grid(1), t.shape[0], cuda.gridsize(1)):
        for c in range(k):
            for step in range(n):
                i = step if lower else n - 1 - step
                first, last = (0, i) if lower else (i + 1, n)
                for j in range(first, last):
                    x[b, i, c] -= t[b, i, j] * x[b, j, c]
                if t[b, i, i] == 0.0:
                    singular[0] = 1
                else:
                    x[b, i, c] /= t[b, i, i]


@device.jit
def _pair_distances(x, first, second, p, inverse, mode, out):
    """out[q] = the p-norm of x[first[q]] - x[second[q]] in x's dtype:
    mode 0 (p = 1) counts the differing features, 1 takes the largest |difference|,
    2 sums |difference| ** p and raises the sum to ``inverse`` (1 / p)."""
    for q in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        acc = p - p                 # zero in x's dtype
        for f in range(x.shape[1]):
            difference = abs(x[first[q], f] - x[second[q], f])
            if mode == 0:
                if difference != 0:
                    acc += p        # (p is 1 here)
            elif mode == 1:
                if difference > acc or difference != difference:
                    acc = difference
            else:
                acc += difference ** p
        out[q] = acc ** inverse if mode == 2 else acc


# --- the host side: work arrays in, results out --------------------------------

def _floats(*tensors) -> bool:
    """Whether every tensor is float32 or float64 and not empty."""
    return all(x.dtype in FLOAT_TYPES and x.size for x in tensors)


def _flag():
    """A device flag (int32, 0) a kernel sets to decline."""
    return device.zeros((1,), np.int32)


def _raised(flag) -> bool:
    """Whether a kernel set ``flag`` (one element read back)."""
    return bool(device.to_host(flag)[0])


def _work(x, batch=None, transpose=False, part=ALL, unit=False):
    """The matrices of x's last two axes as a float64 device array (count,
    rows, cols), broadcast to the ``batch`` axes (default x's own),
    transposed, cut to a triangle (``part``, in the loaded orientation)
    and given a unit diagonal where asked."""
    shape = tuple(x.shape)      # (the simulator's shapes take no negative index)
    batch = shape[:-2] if batch is None else tuple(batch)
    rows, cols = shape[-2:]
    strides = (1, cols) if transpose else (cols, 1)
    if transpose:
        rows, cols = cols, rows
    work = device.empty((math.prod(batch), rows, cols), WORK)
    starts = device.constant(batch_offsets(batch, shape[:-2], rows * cols))
    device.launch(_load, work.size, flat(x), starts, *strides, part, bool(unit), work)
    return work


def _result(work, shape, dtype):
    """``work`` (float64, C-contiguous) as a device array of ``shape`` and
    ``dtype``: itself reshaped for float64, else a rounded copy (the work
    array then goes back to the pool)."""
    if np.dtype(dtype) == WORK:
        return work.reshape(shape)
    out = device.empty(shape, dtype)
    device.launch(index.convert, out.size, flat(work), flat(out))
    device.release(work)
    return out


def _factor(work, shift=0.0):
    """getrf of every matrix of ``work`` (+ shift * I), in place: (pivots,
    det, sign, log |det|, whether a pivot was zero)."""
    count, n = work.shape[:2]
    pivots = device.empty((count, n), np.int64)
    det, sign, log_abs = (device.empty((count,), WORK) for _ in range(3))
    singular = _flag()
    device.launch(_lu_factor, count, work, float(shift), pivots, det, sign,
                  log_abs, singular)
    return pivots, det, sign, log_abs, _raised(singular)


def _solvable(a, b):
    """The broadcast batch axes of a (..., n, n) and b (..., n, k); None
    where the shapes do not fit or a matrix is empty."""
    a_shape, b_shape = tuple(a.shape), tuple(b.shape)
    if a.ndim < 2 or b.ndim < 2 or a_shape[-1] != a_shape[-2] \
            or b_shape[-2] != a_shape[-1] or not (a.size and b.size):
        return None
    try:
        return np.broadcast_shapes(a_shape[:-2], b_shape[:-2])
    except ValueError:
        return None


def _solve(a, b, dtype, transpose=False, shift=0.0):
    """y with (a + shift * I) @ y = b (a's matrices transposed first where
    asked) for square a (..., n, n) and b (..., n, k), batch axes
    broadcast, as a device array of ``dtype``; None where the shapes do
    not fit or a matrix is singular (the reference raises)."""
    batch = _solvable(a, b)
    if batch is None:
        return None
    work, rhs = _work(a, batch, transpose), _work(b, batch)
    pivots, *_, singular = _factor(work, shift)
    if singular:
        return None
    device.launch(_lu_solve, rhs.shape[0], work, pivots, rhs)
    device.release(work)
    return _result(rhs, batch + tuple(b.shape)[-2:], dtype)


def _identities(like):
    """float64 identity matrices of the shape of ``like`` (..., n, n)."""
    n = like.shape[like.ndim - 1]
    return index.broadcast_to(fill.eye(n, n, WORK), tuple(like.shape))


def _gram(factor, upper: bool):
    """F^T F (upper) or F F^T of every matrix of a float64 device array."""
    return gemm.product(factor, factor, transpose_a=upper, transpose_c=not upper)


def _square(x) -> bool:
    """Whether x is a non-empty float32/float64 stack of square matrices."""
    return x.ndim >= 2 and x.shape[x.ndim - 1] == x.shape[x.ndim - 2] and _floats(x)


# --- the ops ---------------------------------------------------------------------

def _determinants(input):
    """(det, sign, log |det|) of every matrix of input, float64 device
    arrays of its batch shape; None where the input does not fit."""
    if not _square(input):
        return None
    work = _work(input)
    pivots, det, sign, log_abs, _ = _factor(work)
    device.release(work)
    return det, sign, log_abs


def matrix_determinant(input):
    """MatrixDeterminant."""
    parts = _determinants(input)
    batch = tuple(input.shape)[:-2]
    return None if parts is None else _result(parts[0], batch, input.dtype)


def log_matrix_determinant(input):
    """LogMatrixDeterminant: (sign, log |det|)."""
    parts = _determinants(input)
    if parts is None:
        return None
    batch = tuple(input.shape)[:-2]
    return tuple(_result(part, batch, input.dtype) for part in parts[1:])


def matrix_inverse(x, adjoint=False):
    """MatrixInverse (real: the adjoint is the transpose)."""
    if not _square(x):
        return None
    return _solve(x, _identities(x), x.dtype, transpose=adjoint)


def matrix_solve(matrix, rhs, adjoint=False):
    """MatrixSolve: rhs's dtype."""
    if not _floats(matrix, rhs):
        return None
    return _solve(matrix, rhs, rhs.dtype, transpose=adjoint)


def _triangular_solve(a, b, lower, transpose=False, unit=False):
    """y with op(T) @ y = b for the lower or upper triangle T of a's
    matrices (op: the transpose where asked), b (..., n, k), as b's dtype;
    None where shapes do not fit or a diagonal entry is zero."""
    batch = _solvable(a, b) if _floats(a, b) else None
    if batch is None:
        return None
    loaded_lower = lower != transpose
    t = _work(a, batch, transpose, LOWER if loaded_lower else UPPER, unit)
    y, singular = _work(b, batch), _flag()
    device.launch(_substitute, y.shape[0], t, y, loaded_lower, singular)
    device.release(t)
    if _raised(singular):
        return None
    return _result(y, batch + tuple(b.shape)[-2:], b.dtype)


def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False):
    """MatrixTriangularSolve."""
    return _triangular_solve(matrix, rhs, lower, adjoint)


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False):
    """SolveTriangular: trans "N" or "T"/"C" (real: the same); b (..., n)
    is one right-hand side."""
    vector = b.ndim == a.ndim - 1
    y = _triangular_solve(a, b.reshape(tuple(b.shape) + (1,)) if vector else b,
                          lower, trans not in (0, "N"), unit_diagonal)
    return y.reshape(b.shape) if vector and y is not None else y


def cholesky_solve(x1, x2, upper=False):
    """CholeskySolve: A from x2's triangle (A = U^T U or L L^T), then LU."""
    if not _square(x2) or not _floats(x1):
        return None
    factor = _work(x2, part=UPPER if upper else LOWER)
    return _solve(_gram(factor, upper).reshape(x2.shape), x1, x1.dtype)


def cholesky_inverse(input_x, upper=False):
    """CholeskyInverse: A from the whole of input_x, as the reference."""
    if not _square(input_x):
        return None
    a = _gram(_work(input_x), upper).reshape(input_x.shape)
    return _solve(a, _identities(a), input_x.dtype)


def lstsq(matrix, rhs, fast=True, l2_regularizer=0.0):
    """Lstsq: the normal equations (A^T A + l2 I) y = A^T rhs."""
    if not fast or not _floats(matrix, rhs) or matrix.ndim != 2 \
            or rhs.ndim not in (1, 2) or rhs.shape[0] != matrix.shape[0]:
        return None
    a = _work(matrix)
    b = _work(rhs.reshape(rhs.shape[0], rhs.size // rhs.shape[0]))
    y = _solve(gemm.product(a, a, transpose_a=True), gemm.product(a, b, transpose_a=True),
               matrix.dtype, shift=float(l2_regularizer))
    return None if y is None else y.reshape((matrix.shape[1],) + tuple(rhs.shape[1:]))


def matrix_power(x, n):
    """MatrixPower: NumPy's matrix_power (products in x's dtype by gemm.py,
    in its order); a negative power of a float x starts from the inverse."""
    if x.ndim < 2 or x.shape[x.ndim - 1] != x.shape[x.ndim - 2] or not x.size \
            or x.dtype == np.float16 or (n < 0 and x.dtype.kind != "f"):
        return None
    if n < 0:
        x = _solve(x, _identities(x), x.dtype)
        if x is None:
            return None
        n = -n
    if n == 0:
        n = x.shape[x.ndim - 1]
        return index.broadcast_to(fill.eye(n, n, x.dtype), tuple(x.shape))
    if n <= 3:
        result = x if n > 1 else device.copy(x)
        for _ in range(n - 1):
            result = gemm.product(result, x)
        return result
    power = result = None
    while n > 0:
        power = x if power is None else gemm.product(power, power)
        n, bit = divmod(n, 2)
        if bit:
            result = power if result is None else gemm.product(result, power)
    return result


def pdist(x, p=2.0):
    """Pdist: one thread per pair of rows (i < j, row-major)."""
    if x.ndim != 2 or p < 0 or x.dtype not in FLOAT_TYPES:
        return None
    first, second = np.triu_indices(x.shape[0], 1)
    out = device.empty((first.size,), x.dtype)
    if out.size:
        mode = 0 if p == 0 else 1 if math.isinf(p) else 2
        power = x.dtype.type(1 if mode != 2 else p)
        device.launch(_pair_distances, out.size, x, device.constant(first),
                      device.constant(second), power, x.dtype.type(1) / power,
                      mode, out)
    return out


KERNELS = {"MatrixDeterminant": matrix_determinant,
           "LogMatrixDeterminant": log_matrix_determinant,
           "MatrixInverse": matrix_inverse, "MatrixSolve": matrix_solve,
           "MatrixTriangularSolve": matrix_triangular_solve,
           "SolveTriangular": solve_triangular, "CholeskySolve": cholesky_solve,
           "CholeskyInverse": cholesky_inverse, "Lstsq": lstsq,
           "MatrixPower": matrix_power, "Pdist": pdist}
registry.declare_kernels("cuda", KERNELS)

_3D, _2D, _1D = "float64[:, :, ::1]", "int64[:, ::1]", "float64[::1]"
# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"load, {dtype}", _load,
        f"void({dtype}[::1], int64[::1], int64, int64, int64, boolean, {_3D})")
       for dtype in ("float32", "float64")]
PTX += [("LU factor", _lu_factor,
         f"void({_3D}, float64, {_2D}, {_1D}, {_1D}, {_1D}, int32[::1])"),
        ("LU solve", _lu_solve, f"void({_3D}, {_2D}, {_3D})"),
        ("substitute", _substitute, f"void({_3D}, {_3D}, boolean, int32[::1])")]
PTX += [(f"pair distances, {dtype}", _pair_distances,
         f"void({dtype}[:, ::1], int64[::1], int64[::1], {dtype}, {dtype}, int64,"
         f" {dtype}[::1])") for dtype in ("float32", "float64")]
