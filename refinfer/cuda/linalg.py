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
- Householder QR as LAPACK's geqr2/org2r (dlarfg's signs, so Qr and Geqrf
  give LAPACK's q, r, reflectors and tau, not only some QR).
- One-sided Jacobi SVD (Svd; NuclearNorm sums its values) and cyclic
  Jacobi for symmetric matrices (Eigh, SelfAdjointEig): the values as
  LAPACK's, sorted as the references; each pair of singular vectors and
  each eigenvector is unique up to sign only, as the references document,
  and comes with the sign the rotations give.
- The complex Schur form (Householder to Hessenberg, then single-shift QR
  with Wilkinson's shift, as LAPACK's zlahqr) gives Eig (the diagonal;
  eigenvectors by back substitution, unit length with the largest
  component real, as geev) and MatrixLogarithm (Parlett's recurrence on
  the triangle; eigenvalues closer than CLOSE decline).

A matrix the reference finds singular (an exact zero pivot, a zero on a
triangle's diagonal) sets a flag, read back, and the kernel declines: the
reference raises its own error. float16, empty matrices and shapes the
reference refuses decline too. Importing this module declares the kernels.
"""
from __future__ import annotations

import math

import numpy as np

from refinfer import registry

from . import device, fill, gemm, index, reduce
from .device import cuda, dmath
from .layout import batch_offsets, contiguous_strides, flat

WORK = np.dtype(np.float64)
COMPLEX = np.dtype(np.complex128)      # the work of the general eigenproblems
FLOAT_TYPES = (np.dtype(np.float32), np.dtype(np.float64))
ALL, LOWER, UPPER = 0, 1, 2     # the part of a matrix _load keeps
EPSILON = float(np.finfo(np.float64).eps)
SWEEPS = 60     # Jacobi sweeps at most (float64 converges in ~10 for n <= 100)
QR_STEPS = 30   # shifted QR steps at most per eigenvalue (LAPACK's zlahqr: 30)
# Parlett's recurrence divides by the gaps between eigenvalues: closer
# than this (relative) the logarithm declines.
CLOSE = 1e-6


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


@device.jit
def _householder(a, tau):
    """LAPACK's geqr2 on each a[b] (m x n) in place: for j < min(m, n) the
    reflector H = I - tau v v^T (dlarfg: beta = -sign(alpha) ||(alpha, x)||,
    v[0] = 1 implied, tau = 0 where x is zero) that zeroes column j below
    the diagonal, applied to the columns after it; r on and above the
    diagonal, the vectors below it."""
    m, n = a.shape[1], a.shape[2]
    steps = m if m < n else n
    for b in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):
        for j in range(steps):
            squares = 0.0
            for i in range(j + 1, m):
                squares += a[b, i, j] * a[b, i, j]
            if squares == 0.0:
                tau[b, j] = 0.0
                continue
            alpha = a[b, j, j]
            beta = dmath.hypot(alpha, dmath.sqrt(squares))
            beta = -beta if alpha >= 0.0 else beta
            tau[b, j] = (beta - alpha) / beta
            for i in range(j + 1, m):
                a[b, i, j] /= alpha - beta
            a[b, j, j] = beta
            for c in range(j + 1, n):
                w = a[b, j, c]
                for i in range(j + 1, m):
                    w += a[b, i, j] * a[b, i, c]
                w *= tau[b, j]
                a[b, j, c] -= w
                for i in range(j + 1, m):
                    a[b, i, c] -= a[b, i, j] * w


@device.jit
def _form_q(a, tau, q):
    """LAPACK's org2r: q[b] (m x columns) = the first columns of H_0 H_1 ...
    from geqr2's vectors in a[b] and tau[b], applied backwards to the
    identity's columns."""
    m, columns, steps = q.shape[1], q.shape[2], tau.shape[1]
    for b in range(cuda.grid(1), q.shape[0], cuda.gridsize(1)):
        for i in range(m):
            for c in range(columns):
                q[b, i, c] = (a[b, i, c] if c < steps and i > c
                              else 1.0 if i == c and c >= steps else 0.0)
        for j in range(steps - 1, -1, -1):
            q[b, j, j] = 1.0
            for c in range(j + 1, columns):
                w = 0.0
                for i in range(j, m):
                    w += q[b, i, j] * q[b, i, c]
                w *= tau[b, j]
                for i in range(j, m):
                    q[b, i, c] -= q[b, i, j] * w
            for i in range(j + 1, m):
                q[b, i, j] *= -tau[b, j]
            q[b, j, j] = 1.0 - tau[b, j]
            for i in range(j):
                q[b, i, j] = 0.0


@device.device_function
def _rotate(x, b, p, q, rows, cos, sin):
    """Columns p and q of x[b] (its first ``rows`` rows) rotated:
    (x_p, x_q) <- (cos x_p - sin x_q, sin x_p + cos x_q)."""
    for i in range(rows):
        xp, xq = x[b, i, p], x[b, i, q]
        x[b, i, p] = cos * xp - sin * xq
        x[b, i, q] = sin * xp + cos * xq


@device.device_function
def _rotation(zeta):
    """(cos, sin) of the Jacobi rotation with cot(2 theta) = zeta: the
    smaller angle, t = sign(zeta) / (|zeta| + sqrt(1 + zeta^2))."""
    t = 1.0 / (abs(zeta) + dmath.hypot(1.0, zeta))
    t = -t if zeta < 0.0 else t
    cos = 1.0 / dmath.hypot(1.0, t)
    return cos, cos * t


@device.device_function
def _swap_columns(x, b, p, q):
    """Columns p and q of x[b] exchanged."""
    for i in range(x.shape[1]):
        x[b, i, p], x[b, i, q] = x[b, i, q], x[b, i, p]


@device.device_function
def _dot(x, b, p, q):
    """Columns p and q of x[b]: their dot product."""
    total = 0.0
    for i in range(x.shape[1]):
        total += x[b, i, p] * x[b, i, q]
    return total


@device.device_function
def _identity(x, b):
    """x[b] = I (square)."""
    for i in range(x.shape[1]):
        for j in range(x.shape[2]):
            x[b, i, j] = 1.0 if i == j else 0.0


@device.device_function
def _complete(u, b, have):
    """Columns have, have + 1, ... of u[b] made orthonormal to those before
    (the basis vectors e_0, e_1, ... by twice-repeated Gram-Schmidt, each
    kept where at least 1 / (2 rows) of its square norm is left, which
    one of them always is)."""
    rows, basis = u.shape[1], 0
    for c in range(have, u.shape[2]):
        while basis < rows:
            for i in range(rows):
                u[b, i, c] = 1.0 if i == basis else 0.0
            basis += 1
            for _ in range(2):
                for d in range(c):
                    along = _dot(u, b, d, c)
                    for i in range(rows):
                        u[b, i, c] -= along * u[b, i, d]
            squares = _dot(u, b, c, c)
            if squares * rows >= 0.5:
                for i in range(rows):
                    u[b, i, c] /= dmath.sqrt(squares)
                break


@device.jit
def _jacobi_svd(a, u, v, s, failed):
    """One-sided Jacobi SVD of each a[b] (rows >= cols): the columns of
    a copy in u[b] rotated in cyclic sweeps until every pair is orthogonal
    to float64 precision (at most SWEEPS), the rotations gathered in v[b];
    s[b] = the column norms, descending, u's columns normalised; u's
    columns for zero singular values and past cols completed to an
    orthonormal set. a = u[:, :cols] diag(s) v^T. failed[0] = 1 where the
    sweeps do not converge (NaN: LAPACK's "did not converge")."""
    rows, cols = a.shape[1], a.shape[2]
    for b in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):
        for i in range(rows):
            for j in range(cols):
                u[b, i, j] = a[b, i, j]
        _identity(v, b)
        converged = False
        for _ in range(SWEEPS):
            rotated = False
            for p in range(cols - 1):
                for q in range(p + 1, cols):
                    alpha, beta = _dot(u, b, p, p), _dot(u, b, q, q)
                    gamma = _dot(u, b, p, q)
                    if abs(gamma) <= EPSILON * dmath.sqrt(alpha * beta):
                        continue
                    rotated = True
                    cos, sin = _rotation((beta - alpha) / (2.0 * gamma))
                    _rotate(u, b, p, q, rows, cos, sin)
                    _rotate(v, b, p, q, cols, cos, sin)
            if not rotated:
                converged = True
                break
        if not converged:
            failed[0] = 1
        for j in range(cols):
            s[b, j] = dmath.sqrt(_dot(u, b, j, j))
        for j in range(cols):               # selection sort, descending
            best = j
            for k in range(j + 1, cols):
                if s[b, k] > s[b, best]:
                    best = k
            if best != j:
                s[b, j], s[b, best] = s[b, best], s[b, j]
                _swap_columns(u, b, j, best)
                _swap_columns(v, b, j, best)
        have = 0
        for j in range(cols):
            if s[b, j] > s[b, 0] * EPSILON * rows and s[b, j] > 0.0:
                for i in range(rows):
                    u[b, i, j] /= s[b, j]
                have = j + 1
        _complete(u, b, have)


@device.jit
def _jacobi_eigen(a, lower, v, w, failed):
    """Cyclic Jacobi on each symmetric a[b], read from its lower (``lower``)
    or upper triangle: rotations J^T a J zero each off-diagonal pair in
    sweeps until their squares sum to nothing against the whole (at most
    SWEEPS), gathered in v[b]; w[b] = the diagonal, ascending, with v's
    columns; failed[0] = 1 where the sweeps do not converge (NaN)."""
    n = a.shape[1]
    for b in range(cuda.grid(1), a.shape[0], cuda.gridsize(1)):
        for i in range(n):
            for j in range(i):
                if lower:
                    a[b, j, i] = a[b, i, j]
                else:
                    a[b, i, j] = a[b, j, i]
        total = 0.0
        for i in range(n):
            for j in range(n):
                total += a[b, i, j] * a[b, i, j]
        _identity(v, b)
        converged = False
        for _ in range(SWEEPS):
            off = 0.0
            for p in range(n - 1):
                for q in range(p + 1, n):
                    off += a[b, p, q] * a[b, p, q]
            if off <= EPSILON * EPSILON * total:
                converged = True
                break
            for p in range(n - 1):
                for q in range(p + 1, n):
                    app, aqq, apq = a[b, p, p], a[b, q, q], a[b, p, q]
                    if apq == 0.0:
                        continue
                    cos, sin = _rotation((aqq - app) / (2.0 * apq))
                    _rotate(a, b, p, q, n, cos, sin)
                    for k in range(n):      # the rows: J^T a J is symmetric
                        a[b, p, k], a[b, q, k] = a[b, k, p], a[b, k, q]
                    tan = sin / cos
                    a[b, p, p], a[b, q, q] = app - tan * apq, aqq + tan * apq
                    a[b, p, q] = a[b, q, p] = 0.0
                    _rotate(v, b, p, q, n, cos, sin)
        if not converged:
            failed[0] = 1
        for j in range(n):
            w[b, j] = a[b, j, j]
        for j in range(n):                  # selection sort, ascending
            best = j
            for k in range(j + 1, n):
                if w[b, k] < w[b, best]:
                    best = k
            if best != j:
                w[b, j], w[b, best] = w[b, best], w[b, j]
                _swap_columns(v, b, j, best)


@device.jit
def _pseudo_solve(left, right, s, rhs, cutoff, x):
    """x[b] = right diag(1 / s) left^T rhs[b] over the singular values
    above cutoff * s[b, 0] (s descending): the minimum-norm least-squares
    solution of (left diag(s) right^T) x = rhs, as LAPACK's gelsd."""
    m, n, columns = left.shape[1], right.shape[1], rhs.shape[2]
    for b in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
        for i in range(n):
            for c in range(columns):
                x[b, i, c] = 0.0
        for j in range(s.shape[1]):
            if s[b, j] <= cutoff * s[b, 0]:
                break
            for c in range(columns):
                along = 0.0
                for i in range(m):
                    along += left[b, i, j] * rhs[b, i, c]
                along /= s[b, j]
                for i in range(n):
                    x[b, i, c] += right[b, i, j] * along


@device.jit
def _residuals(a, x, rhs, out):
    """out[b, c] = the sum over rows i of ((a[b] x[b])[i, c] - rhs[b, i, c])^2."""
    m, n, columns = a.shape[1], a.shape[2], out.shape[1]
    for e in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        b, c = e // columns, e % columns
        total = 0.0
        for i in range(m):
            difference = -rhs[b, i, c]
            for j in range(n):
                difference += a[b, i, j] * x[b, j, c]
            total += difference * difference
        out[b, c] = total


@device.jit
def _rank(s, factor, out):
    """out[b] = how many of the singular values s[b] (descending) exceed
    factor * s[b, 0]."""
    for b in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        count = 0
        for j in range(s.shape[1]):
            if s[b, j] > s[b, 0] * factor:
                count += 1
        out[b] = count


@device.device_function
def _csqrt(z):
    """The principal square root of the complex z."""
    size = abs(z)
    if size == 0.0:
        return z
    root = dmath.sqrt((size + abs(z.real)) / 2.0)
    if z.real >= 0.0:
        return root + 1j * (z.imag / (2.0 * root))
    return abs(z.imag) / (2.0 * root) + 1j * (root if z.imag >= 0.0 else -root)


@device.device_function
def _squares(z):
    """|z|^2."""
    return z.real * z.real + z.imag * z.imag


@device.device_function
def _hessenberg(h, q, v, b):
    """h[b] reduced to upper Hessenberg form by Householder reflections
    P = I - 2 v v^H / |v|^2 (v in v[b]), applied on both sides and
    gathered in q[b]."""
    n = h.shape[1]
    for k in range(n - 2):
        norm2 = 0.0
        for i in range(k + 1, n):
            norm2 += _squares(h[b, i, k])
        alpha = h[b, k + 1, k]
        if norm2 == _squares(alpha):
            continue            # nothing below the subdiagonal
        for i in range(k + 1, n):
            v[b, i] = h[b, i, k]
        size = abs(alpha)
        v[b, k + 1] += (alpha / size if size != 0.0 else 1.0) * dmath.sqrt(norm2)
        scale = 0.0
        for i in range(k + 1, n):
            scale += _squares(v[b, i])
        scale = 2.0 / scale
        for c in range(n):          # P h
            along = 0j
            for i in range(k + 1, n):
                along += v[b, i].conjugate() * h[b, i, c]
            for i in range(k + 1, n):
                h[b, i, c] -= scale * along * v[b, i]
        for r in range(n):          # h P and q P
            along, gathered = 0j, 0j
            for i in range(k + 1, n):
                along += h[b, r, i] * v[b, i]
                gathered += q[b, r, i] * v[b, i]
            for i in range(k + 1, n):
                h[b, r, i] -= scale * along * v[b, i].conjugate()
                q[b, r, i] -= scale * gathered * v[b, i].conjugate()
        for i in range(k + 2, n):
            h[b, i, k] = 0j


@device.device_function
def _wilkinson(h, b, hi):
    """The eigenvalue of the trailing 2 x 2 block of rows hi - 1, hi of
    h[b] nearer its last diagonal entry."""
    a, c = h[b, hi - 1, hi - 1], h[b, hi, hi]
    half = (a + c) / 2.0
    spread = _csqrt((a - c) * (a - c) / 4.0 + h[b, hi - 1, hi] * h[b, hi, hi - 1])
    return half + spread if abs(half + spread - c) < abs(half - spread - c) \
        else half - spread


@device.device_function
def _givens(h, q, b, k, x, y, first, last):
    """The rotation G (c real) with G (x, y) = (r, 0), applied to rows k,
    k + 1 of h[b] from column ``first`` on, and by G^H to its columns k,
    k + 1 above row ``last`` and to q[b]'s."""
    size = dmath.hypot(abs(x), abs(y))
    if size == 0.0:
        return
    c = abs(x) / size
    s = (x / abs(x) if abs(x) != 0.0 else 1.0 + 0j) * y.conjugate() / size
    for col in range(first, h.shape[2]):
        top, bottom = h[b, k, col], h[b, k + 1, col]
        h[b, k, col] = c * top + s * bottom
        h[b, k + 1, col] = c * bottom - s.conjugate() * top
    for row in range(h.shape[1]):
        if row < last:
            left, right = h[b, row, k], h[b, row, k + 1]
            h[b, row, k] = c * left + s.conjugate() * right
            h[b, row, k + 1] = c * right - s * left
        left, right = q[b, row, k], q[b, row, k + 1]
        q[b, row, k] = c * left + s.conjugate() * right
        q[b, row, k + 1] = c * right - s * left


@device.jit
def _schur(h, q, v, failed):
    """The complex Schur form of each h[b] in place, h = q t q^H with t
    upper triangular and q[b] unitary: Householder to Hessenberg form,
    then single-shift QR steps (Wilkinson's shift, an exceptional one
    every 10th step, as LAPACK's zlahqr) chased by Givens rotations over
    the active block, deflating where a subdiagonal entry falls under
    float64 precision of its neighbours; failed[0] = 1 where an eigenvalue
    takes more than QR_STEPS steps."""
    n = h.shape[1]
    for b in range(cuda.grid(1), h.shape[0], cuda.gridsize(1)):
        _identity(q, b)
        _hessenberg(h, q, v, b)
        hi, steps = n - 1, 0
        while hi > 0:
            low = hi
            while low > 0:
                near = abs(h[b, low - 1, low - 1]) + abs(h[b, low, low])
                if abs(h[b, low, low - 1]) <= EPSILON * near:
                    h[b, low, low - 1] = 0j
                    break
                low -= 1
            if low == hi:
                hi, steps = hi - 1, 0
                continue
            steps += 1
            if steps > QR_STEPS:
                failed[0] = 1
                break
            shift = _wilkinson(h, b, hi)
            if steps % 10 == 0:
                shift = h[b, hi, hi] + abs(h[b, hi, hi - 1])
            x, y = h[b, low, low] - shift, h[b, low + 1, low]
            for k in range(low, hi):
                if k > low:
                    x, y = h[b, k, k - 1], h[b, k + 1, k - 1]
                _givens(h, q, b, k, x, y, low if k == low else k - 1,
                        k + 3 if k + 3 < hi + 1 else hi + 1)


@device.jit
def _schur_vectors(t, q, y, vectors):
    """vectors[b][:, k] = q[b] y for the eigenvector y of the triangular
    t[b] for t[k, k] (y[k] = 1, back substitution, a gap under float64
    precision widened to it), of unit length, its largest component real
    and positive (LAPACK's geev normalises so)."""
    n = t.shape[1]
    for b in range(cuda.grid(1), t.shape[0], cuda.gridsize(1)):
        for k in range(n):
            y[b, k] = 1.0 + 0j
            tiny = EPSILON * abs(t[b, k, k]) + 1e-300
            for i in range(k - 1, -1, -1):
                total = 0j
                for j in range(i + 1, k + 1):
                    total += t[b, i, j] * y[b, j]
                gap = t[b, i, i] - t[b, k, k]
                y[b, i] = -total / (gap if abs(gap) >= tiny else tiny + 0j)
            norm2, largest = 0.0, 0
            for i in range(n):
                value = 0j
                for j in range(k + 1):
                    value += q[b, i, j] * y[b, j]
                vectors[b, i, k] = value
                norm2 += _squares(value)
                if abs(value) > abs(vectors[b, largest, k]):
                    largest = i
            top = vectors[b, largest, k]
            turn = top.conjugate() / abs(top) / dmath.sqrt(norm2)
            for i in range(n):
                vectors[b, i, k] *= turn


@device.jit
def _schur_log(t, q, f, row, failed):
    """t[b] = q log(t) q^H from the Schur form t[b], q[b]: the principal
    logarithm of the triangle by Parlett's recurrence, f[b] its work;
    failed[0] = 1 where two eigenvalues are closer than CLOSE (relative)
    or one is zero."""
    n = t.shape[1]
    for b in range(cuda.grid(1), t.shape[0], cuda.gridsize(1)):
        for i in range(n):
            for j in range(n):
                f[b, i, j] = 0j
            z = t[b, i, i]
            if abs(z) == 0.0:
                failed[0] = 1
                continue
            f[b, i, i] = dmath.log(abs(z)) + 1j * dmath.atan2(z.imag, z.real)
        for d in range(1, n):
            for i in range(n - d):
                j = i + d
                gap = t[b, j, j] - t[b, i, i]
                if abs(gap) <= CLOSE * (abs(t[b, i, i]) + abs(t[b, j, j])):
                    failed[0] = 1
                    continue
                total = t[b, i, j] * (f[b, j, j] - f[b, i, i])
                for k in range(i + 1, j):
                    total += t[b, i, k] * f[b, k, j] - f[b, i, k] * t[b, k, j]
                f[b, i, j] = total / gap
        for i in range(n):
            for c in range(n):
                total = 0j
                for k in range(n):
                    total += q[b, i, k] * f[b, k, c]
                row[b, c] = total
            for j in range(n):
                total = 0j
                for c in range(n):
                    total += row[b, c] * q[b, j, c].conjugate()
                t[b, i, j] = total


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


def _gather(x, starts, rows, cols, strides, part=ALL, unit=False, dtype=WORK):
    """A device array (len(starts), rows, cols) of ``dtype`` (float64, or
    complex128 for complex work) of the matrices of x at element offsets
    ``starts`` (host int64) read with element ``strides`` (row, column),
    cut to a triangle and given a unit diagonal where asked (:func:`_load`)."""
    work = device.empty((len(starts), rows, cols), dtype)
    device.launch(_load, work.size, flat(x), device.constant(starts), *strides,
                  part, bool(unit), work)
    return work


def _work(x, batch=None, transpose=False, part=ALL, unit=False, dtype=WORK):
    """The matrices of x's last two axes as a device array (count, rows,
    cols) of ``dtype``, broadcast to the ``batch`` axes (default x's own),
    transposed, cut to a triangle (``part``, in the loaded orientation)
    and given a unit diagonal where asked."""
    shape = tuple(x.shape)      # (the simulator's shapes take no negative index)
    batch = shape[:-2] if batch is None else tuple(batch)
    rows, cols = shape[-2:]
    starts = batch_offsets(batch, shape[:-2], rows * cols)
    if transpose:
        return _gather(x, starts, cols, rows, (1, cols), part, unit, dtype)
    return _gather(x, starts, rows, cols, (cols, 1), part, unit, dtype)


def _result(work, shape, dtype):
    """``work`` (float64 or complex128, C-contiguous) as a device array of
    ``shape`` and ``dtype``: itself reshaped where the dtypes agree, else
    a rounded copy (the work array then goes back to the pool)."""
    if np.dtype(dtype) == work.dtype:
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


def _decomposable(x) -> bool:
    """Whether x is a non-empty float32/float64 stack of matrices."""
    return x.ndim >= 2 and _floats(x)


def _geqrf(x):
    """geqr2 of x's matrices: (float64 work in LAPACK's compact form,
    tau), (count, m, n) and (count, min(m, n))."""
    work = _work(x)
    count, m, n = work.shape
    tau = device.empty((count, min(m, n)), WORK)
    device.launch(_householder, count, work, tau)
    return work, tau


def geqrf(input):
    """Geqrf: (y, tau) as LAPACK's geqrf."""
    if not _decomposable(input):
        return None
    work, tau = _geqrf(input)
    batch = tuple(input.shape)[:-2]
    return (_result(work, tuple(input.shape), input.dtype),
            _result(tau, batch + (tau.shape[1],), input.dtype))


def qr(x, full_matrices=False):
    """Qr: q from org2r, r the upper triangle of geqr2's first rows (all m
    of them when full_matrices), as NumPy's qr."""
    if not _decomposable(x):
        return None
    work, tau = _geqrf(x)
    count, m, n = work.shape
    columns = m if full_matrices else min(m, n)
    q = device.empty((count, m, columns), WORK)
    device.launch(_form_q, count, work, tau, q)
    r = _gather(work, np.arange(count) * m * n, columns, n, (n, 1), UPPER)
    batch = tuple(x.shape)[:-2]
    for scratch in (work, tau):
        device.release(scratch)
    return (_result(q, batch + (m, columns), x.dtype),
            _result(r, batch + (columns, n), x.dtype))


def _singular(work, full=False):
    """The Jacobi SVD of float64 matrices (count, rows >= cols): (s, u,
    v) with u (count, rows, rows if full else cols), v (count, cols, cols);
    None where it did not converge (the reference raises)."""
    count, rows, cols = work.shape
    u = device.empty((count, rows, rows if full else cols), WORK)
    v = device.empty((count, cols, cols), WORK)
    s, failed = device.empty((count, cols), WORK), _flag()
    device.launch(_jacobi_svd, count, work, u, v, s, failed)
    device.release(work)
    return None if _raised(failed) else (s, u, v)


def svd(input, full_matrices=False, compute_uv=True):
    """Svd: (s, u, v) by one-sided Jacobi on the matrix or, for m < n, on
    its transpose (the roles of u and v swapped): s as LAPACK's, the
    singular vectors up to a common sign per pair (as the reference
    documents); u and v zeros of (1,) without compute_uv."""
    if not _decomposable(input):
        return None
    batch, (m, n) = tuple(input.shape)[:-2], tuple(input.shape)[-2:]
    parts = _singular(_work(input, transpose=m < n), full_matrices)
    if parts is None:
        return None
    (s, u, v), k = parts, min(m, n)
    s = _result(s, batch + (k,), input.dtype)
    if not compute_uv:
        return (s, *(device.zeros((1,), input.dtype) for _ in range(2)))
    if m < n:
        u, v = v, u
    columns = (m, n) if full_matrices else (k, k)
    return (s, _result(u, batch + (m, columns[0]), input.dtype),
            _result(v, batch + (n, columns[1]), input.dtype))


def nuclear_norm(input, dim=None, keepdim=False):
    """NuclearNorm: the sum of the Jacobi singular values of the matrices
    over axes ``dim`` (read through their strides, none moved)."""
    axes = (0, 1) if dim is None else tuple(dim)
    shape = tuple(input.shape)
    if not _decomposable(input) or len(axes) != 2 \
            or not all(-input.ndim <= a < input.ndim for a in axes) \
            or axes[0] % input.ndim == axes[1] % input.ndim \
            or (dim is None and input.ndim != 2):
        return None
    first, second = (a % input.ndim for a in axes)
    strides = contiguous_strides(shape)
    others = [a for a in range(input.ndim) if a not in (first, second)]
    starts = sum(np.ix_(*(np.arange(shape[a]) * strides[a] for a in others)),
                 np.zeros((), np.int64)).reshape(-1)
    rows, cols = shape[first], shape[second]
    tall = rows >= cols
    work = _gather(input, starts, *((rows, cols) if tall else (cols, rows)),
                   (strides[first], strides[second]) if tall
                   else (strides[second], strides[first]))
    parts = _singular(work)
    if parts is None:
        return None
    for scratch in parts[1:]:
        device.release(scratch)
    norm = reduce.reduce_sum(parts[0], (1,))
    kept = [1 if a in (first, second) else shape[a] for a in range(input.ndim)] \
        if keepdim else [shape[a] for a in others]
    return _result(norm, tuple(kept), input.dtype)


def _eigen(x, lower, vectors=True):
    """(w, v) of x's symmetric matrices (the lower or upper triangle), or
    w alone: cyclic Jacobi, w ascending; None where it did not converge."""
    shape = tuple(x.shape)
    work = _work(x)
    count, n = work.shape[:2]
    v, w = device.empty((count, n, n), WORK), device.empty((count, n), WORK)
    failed = _flag()
    device.launch(_jacobi_eigen, count, work, bool(lower), v, w, failed)
    device.release(work)
    if _raised(failed):
        return None
    w = _result(w, shape[:-1], x.dtype)
    return (w, _result(v, shape, x.dtype)) if vectors else w


def eigh(x, compute_eigenvectors=True, lower=True):
    """Eigh: one (n, n) matrix; the eigenvectors up to each column's sign."""
    if x.ndim != 2 or not _square(x):
        return None
    return _eigen(x, lower, compute_eigenvectors)


def self_adjoint_eig(x, compute_v=True):
    """SelfAdjointEig: the lower triangle; zeros for the vectors without
    compute_v."""
    if not _square(x):
        return None
    if compute_v:
        return _eigen(x, True)
    w = _eigen(x, True, False)
    return None if w is None else (w, device.zeros(tuple(x.shape), x.dtype))


def lstsq_v2(A, B, driver=None):
    """LstsqV2: the minimum-norm solution from the Jacobi SVD of the
    (broadcast) A, NumPy's cutoff eps(float64) max(M, N) s_max; the
    residuals, rank and singular values of the reference's drivers."""
    driver = "gelsy" if driver is None else driver
    vector = B.ndim == A.ndim - 1
    rhs = B.reshape(tuple(B.shape) + (1,)) if vector else B
    if A.dtype != B.dtype or not _decomposable(A) or not _decomposable(rhs) \
            or A.shape[A.ndim - 2] != rhs.shape[rhs.ndim - 2]:
        return None
    own, (m, n), k = tuple(A.shape)[:-2], tuple(A.shape)[-2:], rhs.shape[rhs.ndim - 1]
    try:
        batch = np.broadcast_shapes(own, tuple(rhs.shape)[:-2])
    except ValueError:
        return None
    parts = _singular(_work(A, batch, transpose=m < n))
    if parts is None:
        return None
    s, u, v = parts
    left, right = (v, u) if m < n else (u, v)
    b, x = _work(rhs, batch), device.empty((math.prod(batch), n, k), WORK)
    device.launch(_pseudo_solve, x.shape[0], left, right, s, b, EPSILON * max(m, n), x)
    for scratch in (u, v):
        device.release(scratch)
    residual = rank = singular = None
    if driver != "gelsy" and m > n:
        squares = device.empty((x.shape[0], k), WORK)
        device.launch(_residuals, squares.size, _work(A, batch), x, b, squares)
        residual = _result(squares, batch + (k,), A.dtype)
    if own != batch:        # rank and singular values are A's own
        parts = _singular(_work(A, transpose=m < n))
        if parts is None:
            return None
        s = parts[0]
    if driver != "gels":
        rank = device.empty(own, np.int64)
        device.launch(_rank, rank.size, s, max(m, n) * float(np.finfo(A.dtype).eps),
                      flat(rank))
    if driver in ("gelss", "gelsd"):
        singular = _result(s, own + (min(m, n),), A.dtype)
    solution = _result(x, batch + (n, k), A.dtype)
    empty = device.empty((0,), A.dtype)
    return (solution.reshape(batch + (n,)) if vector else solution,
            empty if residual is None else residual,
            device.empty((0,), np.int64) if rank is None else rank,
            empty if singular is None else singular)


def _schur_form(x):
    """The complex Schur form of x's matrices: (t, q, a scratch vector per
    matrix) as complex128 device arrays, or None where QR did not
    converge."""
    t = _work(x, dtype=COMPLEX)
    count, n = t.shape[:2]
    q = device.empty((count, n, n), COMPLEX)
    scratch, failed = device.empty((count, n), COMPLEX), _flag()
    device.launch(_schur, count, t, q, scratch, failed)
    return None if _raised(failed) else (t, q, scratch)


def eig(x, compute_v=False):
    """Eig: t's diagonal and q's eigenvectors of t (complex Schur form);
    eigenvalues in the order QR deflates them, each vector's phase making
    its largest component real (order and phase are free: the reference
    documents that only order-free quantities compare)."""
    if not _square(x):
        return None
    out = np.complex128 if x.dtype == np.float64 else np.complex64
    schur = _schur_form(x)
    if schur is None:
        return None
    t, q, scratch = schur
    count, n = t.shape[:2]
    shape = tuple(x.shape)
    w = _result(_gather(t, np.arange(count) * n * n, 1, n, (0, n + 1), dtype=COMPLEX),
                shape[:-1], out)
    if not compute_v:
        return w, device.zeros((), out)
    vectors = device.empty((count, n, n), COMPLEX)
    device.launch(_schur_vectors, count, t, q, scratch, vectors)
    return w, _result(vectors, shape, out)


def matrix_logarithm(x):
    """MatrixLogarithm: q log(t) q^H from the complex Schur form (the
    principal branch, as the reference's eigendecomposition); close or
    zero eigenvalues decline."""
    if x.ndim < 2 or x.shape[x.ndim - 1] != x.shape[x.ndim - 2] \
            or x.dtype.kind != "c" or not x.size:
        return None
    schur = _schur_form(x)
    if schur is None:
        return None
    t, q, scratch = schur
    f, failed = device.empty(t.shape, COMPLEX), _flag()
    device.launch(_schur_log, t.shape[0], t, q, f, scratch, failed)
    return None if _raised(failed) else _result(t, tuple(x.shape), x.dtype)


KERNELS = {"MatrixDeterminant": matrix_determinant,
           "LogMatrixDeterminant": log_matrix_determinant,
           "MatrixInverse": matrix_inverse, "MatrixSolve": matrix_solve,
           "MatrixTriangularSolve": matrix_triangular_solve,
           "SolveTriangular": solve_triangular, "CholeskySolve": cholesky_solve,
           "CholeskyInverse": cholesky_inverse, "Lstsq": lstsq,
           "MatrixPower": matrix_power, "Pdist": pdist, "Qr": qr, "Geqrf": geqrf,
           "Svd": svd, "NuclearNorm": nuclear_norm, "Eigh": eigh,
           "SelfAdjointEig": self_adjoint_eig, "LstsqV2": lstsq_v2, "Eig": eig,
           "MatrixLogarithm": matrix_logarithm}
registry.declare_kernels("cuda", KERNELS)

_3D, _2D, _1D = "float64[:, :, ::1]", "float64[:, ::1]", "float64[::1]"
# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"load, {dtype}", _load,
        f"void({dtype}[::1], int64[::1], int64, int64, int64, boolean, {_3D})")
       for dtype in ("float32", "float64")]
PTX += [("LU factor", _lu_factor,
         f"void({_3D}, float64, int64[:, ::1], {_1D}, {_1D}, {_1D}, int32[::1])"),
        ("LU solve", _lu_solve, f"void({_3D}, int64[:, ::1], {_3D})"),
        ("substitute", _substitute, f"void({_3D}, {_3D}, boolean, int32[::1])")]
PTX += [(f"pair distances, {dtype}", _pair_distances,
         f"void({dtype}[:, ::1], int64[::1], int64[::1], {dtype}, {dtype}, int64,"
         f" {dtype}[::1])") for dtype in ("float32", "float64")]
PTX += [("householder", _householder, f"void({_3D}, {_2D})"),
        ("form q", _form_q, f"void({_3D}, {_2D}, {_3D})"),
        ("Jacobi SVD", _jacobi_svd, f"void({_3D}, {_3D}, {_3D}, {_2D}, int32[::1])"),
        ("Jacobi eigen", _jacobi_eigen,
         f"void({_3D}, boolean, {_3D}, {_2D}, int32[::1])")]
PTX += [("pseudo solve", _pseudo_solve,
         f"void({_3D}, {_3D}, {_2D}, {_3D}, float64, {_3D})"),
        ("residuals", _residuals, f"void({_3D}, {_3D}, {_3D}, {_2D})"),
        ("rank", _rank, f"void({_2D}, float64, int64[::1])")]
_C3, _C2 = "complex128[:, :, ::1]", "complex128[:, ::1]"
PTX += [(f"load into complex work, {dtype}", _load,
         f"void({dtype}[::1], int64[::1], int64, int64, int64, boolean, {_C3})")
        for dtype in ("float32", "complex64", "complex128")]
PTX += [("Schur form", _schur, f"void({_C3}, {_C3}, {_C2}, int32[::1])"),
        ("Schur vectors", _schur_vectors, f"void({_C3}, {_C3}, {_C2}, {_C3})"),
        ("Schur logarithm", _schur_log, f"void({_C3}, {_C3}, {_C3}, {_C2}, int32[::1])")]
