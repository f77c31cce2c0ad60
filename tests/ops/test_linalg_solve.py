"""Baddbmm, Diagonal, TraceV2, Tril/TriuIndices, MatrixPower, the solves
(MatrixSolve, MatrixTriangularSolve, SolveTriangular, CholeskySolve,
CholeskyInverse, Lstsq) and Pdist: each against a float64 formula written
apart (products checked by multiplying back, loops for the index ops), per
dtype, with their clear errors. The golden cases check MindSpore's
conventions (CholeskyInverse reads the whole factor, TraceV2's int64)."""
import itertools

import numpy as np
import pytest

TOL = {"float16": 2e-2, "float32": 1e-4, "float64": 1e-10}


def dominant(rng, shape, dtype):
    return (rng.uniform(-1, 1, shape) + 3 * np.eye(shape[-1])).astype(dtype)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_baddbmm(call, rng, dtype):
    x, a, b = (rng.uniform(-1, 1, s).astype(dtype)
               for s in ((1, 4), (2, 3, 5), (2, 5, 4)))
    got = call("Baddbmm", x, a, b, 0.5, -2.0)
    want = [[[0.5 * x[0, j] - 2 * sum(float(a[n, i, k]) * float(b[n, k, j])
                                      for k in range(5)) for j in range(4)]
             for i in range(3)] for n in range(2)]
    assert got.dtype == dtype
    np.testing.assert_allclose(got, want, rtol=TOL[dtype], atol=TOL[dtype])
    with pytest.raises(ValueError, match=r"Baddbmm: batch1 and batch2 must be \(B, n, "
                       r"m\) and \(B, m, p\), got \[2, 3, 5\] and \[2, 4, 5\]"):
        call("Baddbmm", x, a, b.swapaxes(1, 2))


@pytest.mark.parametrize("offset,dim1,dim2",
                         [(0, 0, 1), (1, 0, 2), (-1, 2, 1), (2, -1, 0)])
def test_diagonal_and_trace_v2(call, rng, offset, dim1, dim2):
    x = rng.integers(-9, 9, (3, 2, 4)).astype(np.int32)
    got = call("Diagonal", x, offset, dim1, dim2)
    axes = [a % 3 for a in (dim1, dim2)]
    rest = [a for a in range(3) if a not in axes][0]
    want = [[x[tuple({axes[0]: i, axes[1]: i + offset, rest: r}[a] for a in range(3))]
             for i in range(3) if 0 <= i < x.shape[axes[0]]
             and 0 <= i + offset < x.shape[axes[1]]] for r in range(x.shape[rest])]
    assert got.dtype == np.int32 and got.tolist() == want
    assert call("DiagonalView", x, offset, dim1, dim2).tolist() == want
    total = call("TraceV2", x, offset, dim1, dim2)
    assert total.dtype == np.int64 and total.tolist() == [sum(row) for row in want]
    as_float = call("TraceV2", x.astype(np.float16), offset, dim1, dim2, np.float64)
    assert as_float.dtype == np.float64 and as_float.tolist() == total.tolist()
    with pytest.raises(ValueError, match=r"Diagonal: dim1 0 and dim2 -3 must be two "
                       r"distinct axes of input, got shape \[3, 2, 4\]"):
        call("Diagonal", x, 0, 0, -3)


@pytest.mark.parametrize("row,col,offset", [(3, 4, 1), (4, 3, -1), (0, 2, 0), (2, 2, 5)])
def test_tril_and_triu_indices(call, row, col, offset):
    cells = list(itertools.product(range(row), range(col)))
    lower = call("TrilIndices", row, col, offset)
    assert lower.dtype == np.int32
    assert lower.T.tolist() == [[i, j] for i, j in cells if j <= i + offset]
    upper = call("TriuIndices", row, col, offset, np.int64)
    assert upper.dtype == np.int64 and upper.shape[0] == 2
    assert upper.T.tolist() == [[i, j] for i, j in cells if j >= i + offset]
    with pytest.raises(ValueError, match=r"TrilIndices: row and col must be >= 0, "
                       r"got -1 and 2"):
        call("TrilIndices", -1, 2)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32"])
def test_matrix_power(call, rng, dtype):
    scale = 4 if dtype == "int32" else 1
    x = (dominant(rng, (2, 3, 3), "float64") * scale).astype(dtype)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(call("MatrixPower", x, 3), x64 @ x64 @ x64,
                               rtol=TOL.get(dtype, 0), atol=TOL.get(dtype, 0))
    identity = np.broadcast_to(np.eye(3), x.shape)
    assert call("MatrixPower", x, 0).tolist() == identity.tolist()
    if dtype == "int32":
        with pytest.raises(ValueError, match=r"MatrixPower: a negative power needs a "
                           r"float x, got n=-1 and int32"):
            call("MatrixPower", x, -1)
        return
    inverse_square = call("MatrixPower", x, -2)
    assert inverse_square.dtype == dtype
    np.testing.assert_allclose(x64 @ x64 @ inverse_square,
                               np.broadcast_to(np.eye(3), x.shape), atol=5 * TOL[dtype])


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_solves_multiply_back(call, rng, dtype):
    a = dominant(rng, (2, 3, 3), dtype)
    b = rng.uniform(-1, 1, (2, 3, 2)).astype(dtype)
    a64, b64, tol = a.astype(np.float64), b.astype(np.float64), 5 * TOL[dtype]
    y = call("MatrixSolve", a, b, True)
    assert y.dtype == dtype
    np.testing.assert_allclose(a64.swapaxes(1, 2) @ y, b64, atol=tol)
    y = call("MatrixTriangularSolve", a, b, True, False)
    np.testing.assert_allclose(np.tril(a64) @ y, b64, atol=tol)
    y = call("MatrixTriangularSolve", a, b, False, True)
    np.testing.assert_allclose(np.triu(a64).swapaxes(1, 2) @ y, b64, atol=tol)
    y = call("SolveTriangular", a, b, 1, True, True)
    unit_lower = np.tril(a64, -1) + np.eye(3)
    np.testing.assert_allclose(unit_lower.swapaxes(1, 2) @ y, b64, atol=tol)
    v = call("SolveTriangular", a[0], b[0, :, 0], "N", False, False)
    assert v.shape == (3,)
    np.testing.assert_allclose(np.triu(a64[0]) @ v, b64[0, :, 0], atol=tol)
    # (fuzz seed 30: a (2, 3, n) a with unit_diagonal raised NumPy's IndexError)
    for op, extra in (("SolveTriangular", ("T", True, True)),
                      ("MatrixTriangularSolve", (True, False))):
        with pytest.raises(ValueError, match=r"expected square matrices \(rank >= 2\), "
                                             r"got shape \[2, 3, 5\]"):
            call(op, np.ones((2, 3, 5), dtype), b, *extra)


def test_cholesky_solve_and_inverse(call, rng):
    factor = np.tril(rng.uniform(-1, 1, (3, 3))) + 2 * np.eye(3)
    noisy = factor + 5 * np.triu(rng.uniform(-1, 1, (3, 3)), 1)
    b = rng.uniform(-1, 1, (3, 2))
    a = factor @ factor.T
    np.testing.assert_allclose(a @ call("CholeskySolve", b, noisy), b, atol=1e-10)
    # upper: a = U^T U with U = factor^T
    np.testing.assert_allclose(a @ call("CholeskySolve", b, factor.T, True), b,
                               atol=1e-10)
    np.testing.assert_allclose(call("CholeskyInverse", factor) @ a, np.eye(3), atol=1e-10)
    np.testing.assert_allclose(call("CholeskyInverse", factor.T, True) @ a, np.eye(3),
                               atol=1e-10)
    with pytest.raises(ValueError, match=r"CholeskyInverse: the matrix is singular"):
        call("CholeskyInverse", np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"CholeskySolve: the matrix must be \(..., n, "
                       r"n\) and the right-hand side \(..., n, k\), got \[3, 3\] and "
                       r"\[2, 2\]"):
        call("CholeskySolve", b[:2], factor)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_lstsq_normal_equations(call, rng, dtype):
    a = rng.uniform(-1, 1, (6, 3)).astype(dtype)
    b = rng.uniform(-1, 1, (6, 2)).astype(dtype)
    y = call("Lstsq", a, b)
    a64 = a.astype(np.float64)
    # the residual is orthogonal to a's columns
    np.testing.assert_allclose(a64.T @ (a64 @ y - b), 0, atol=10 * TOL[dtype])
    ridge = call("Lstsq", a, b[:, 0], True, 0.5)
    assert ridge.shape == (3,)
    np.testing.assert_allclose((a64.T @ a64 + 0.5 * np.eye(3)) @ ridge, a64.T @ b[:, 0],
                               atol=10 * TOL[dtype])
    with pytest.raises(ValueError, match=r"Lstsq: fast must be True"):
        call("Lstsq", a, b, False)


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.5, float("inf")])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_pdist(call, rng, p, dtype):
    x = rng.integers(-3, 3, (4, 3)).astype(dtype)
    got = call("Pdist", x, p)
    want = []
    for i, j in itertools.combinations(range(4), 2):
        diff = [abs(float(u) - float(v)) for u, v in zip(x[i], x[j])]
        want.append(sum(d != 0 for d in diff) if p == 0 else max(diff) if p == np.inf
                    else sum(d ** p for d in diff) ** (1 / p))
    assert got.dtype == dtype
    np.testing.assert_allclose(got, want, rtol=TOL[dtype])
    with pytest.raises(ValueError, match=r"Pdist: x must be 2-D and p >= 0, got shape "
                       r"\[2, 4, 3\] and p=2.0"):
        call("Pdist", x[None].repeat(2, 0), 2.0)
    with pytest.raises(TypeError, match=r"Pdist: x must be float16, float32, "
                       r"float64, got bool\[4, 3\]"):
        call("Pdist", x != 0, 2.0)       # MindSpore takes floats only
