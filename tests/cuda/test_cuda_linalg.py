"""The cuda kernels of the linear-algebra family (refinfer/cuda/linalg.py)
against their NumPy references on small batches in float32 and float64
(complex64 and complex128 for MatrixLogarithm, integers exact for
MatrixPower): float64 work on the device against LAPACK in the
reference's dtype, so float32 results agree to float32 rounding of
well-conditioned matrices (TOLERANCE); vectors defined up to sign or phase
compare aligned; what they decline (singular matrices, close eigenvalues,
no convergence, float16, shapes the reference refuses) runs the
reference, error included."""
import numpy as np
import pytest
from cuda_check import FLOATS, run, values

from refinfer import registry
from refinfer.cuda import linalg

# float64 on the device against float32 LAPACK: a few float32 ulps,
# scaled by the condition numbers of these matrices (diagonally dominant).
TOLERANCE = {np.float32: dict(rtol=2e-5, atol=2e-5),
             np.float64: dict(rtol=1e-10, atol=1e-10)}
TOLERANCE.update({np.complex64: TOLERANCE[np.float32],
                  np.complex128: TOLERANCE[np.float64]})
IDS = {"ids": lambda d: np.dtype(d).name}


def _well_conditioned(shape, dtype):
    """Random matrices with n added to the diagonal (condition ~ 1-3)."""
    x = values(shape, np.float64)
    x += shape[-1] * np.eye(*shape[-2:])
    return x.astype(dtype)


def _same(op, *args, **kwargs):
    """The cuda kernel's result equals the reference's: every output's
    dtype and shape, its values within TOLERANCE."""
    expected = registry.get_op(op).reference(*args, **kwargs)
    got = run(op, *args, **kwargs)
    assert got is not None, f"{op}: the cuda kernel declined"
    if not isinstance(expected, tuple):
        expected, got = (expected,), (got,)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape, (op, g.dtype, g.shape, e.shape)
        tolerance = TOLERANCE.get(args[0].dtype.type, TOLERANCE[np.float32])
        np.testing.assert_allclose(g, e, err_msg=op, **tolerance)


def _declines(op, *args, **kwargs):
    """The kernel declines; the reference raises ValueError."""
    assert run(op, *args, **kwargs) is None
    with pytest.raises(ValueError, match=op):
        registry.get_op(op).reference(*args, **kwargs)


def test_every_kernel_is_tested():
    assert set(linalg.KERNELS) == {
        "MatrixDeterminant", "LogMatrixDeterminant", "MatrixInverse", "MatrixSolve",
        "MatrixTriangularSolve", "SolveTriangular", "CholeskySolve",
        "CholeskyInverse", "Lstsq", "MatrixPower", "Pdist", "Qr", "Geqrf", "Svd",
        "NuclearNorm", "Eigh", "SelfAdjointEig", "LstsqV2", "Eig", "MatrixLogarithm"}


@pytest.mark.parametrize("dtype", FLOATS, **IDS)
def test_determinants(dtype):
    x = values((2, 3, 4, 4), dtype)
    _same("MatrixDeterminant", x)
    _same("LogMatrixDeterminant", x)
    singular = np.array([[1, 2], [2, 4]], dtype)
    _same("MatrixDeterminant", singular)            # a zero pivot: det 0
    sign, log_abs = run("LogMatrixDeterminant", singular)
    assert sign == 0 and log_abs == -np.inf


@pytest.mark.parametrize("dtype", FLOATS, **IDS)
def test_inverse_and_solve(dtype):
    x = _well_conditioned((3, 4, 4), dtype)
    for adjoint in (False, True):
        _same("MatrixInverse", x, adjoint)
        _same("MatrixSolve", x, values((3, 4, 2), dtype), adjoint)
    _same("MatrixSolve", x[0], values((2, 4, 3), dtype))    # a broadcast
    singular = np.ones((2, 3, 3), dtype)
    _declines("MatrixInverse", singular)
    _declines("MatrixSolve", singular, values((2, 3, 1), dtype))
    _declines("MatrixSolve", x, values((3, 3, 1), dtype))   # rows differ


@pytest.mark.parametrize("dtype", FLOATS, **IDS)
def test_triangular_solves(dtype):
    a, b = _well_conditioned((2, 4, 4), dtype), values((2, 4, 3), dtype)
    for lower in (False, True):
        for adjoint in (False, True):
            _same("MatrixTriangularSolve", a, b, lower, adjoint)
        for trans in ("N", "T", "C"):
            for unit in (False, True):
                _same("SolveTriangular", a, b, trans, lower, unit)
        _same("SolveTriangular", a, b[..., 0].copy(), "T", lower)  # one vector
    zero = a.copy()
    zero[1, 2, 2] = 0
    _declines("MatrixTriangularSolve", zero, b)


@pytest.mark.parametrize("dtype", FLOATS, **IDS)
def test_cholesky(dtype):
    factor = np.tril(_well_conditioned((2, 3, 3), dtype))
    for upper in (False, True):
        part = factor.swapaxes(-1, -2).copy() if upper else factor
        _same("CholeskySolve", values((2, 3, 2), dtype), part, upper)
        _same("CholeskyInverse", part[0], upper)
    _declines("CholeskyInverse", np.zeros((3, 3), dtype))


@pytest.mark.parametrize("dtype", FLOATS, **IDS)
def test_lstsq(dtype):
    a = _well_conditioned((5, 3), dtype)
    _same("Lstsq", a, values((5, 2), dtype))
    _same("Lstsq", a, values((5,), dtype), True, 0.5)
    _declines("Lstsq", np.zeros((4, 2), dtype), values((4,), dtype))


@pytest.mark.parametrize("dtype", FLOATS + (np.int32, np.int64), **IDS)
def test_matrix_power(dtype):
    x = values((2, 3, 3), dtype)
    if np.dtype(dtype).kind == "f":
        x = (x / 3).astype(dtype)   # powers stay near 1
    for n in (0, 1, 2, 3, 5, 6):
        expected = registry.get_op("MatrixPower").reference(x, n)
        got = run("MatrixPower", x, n)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        if np.dtype(dtype).kind == "f":
            np.testing.assert_allclose(got, expected, **TOLERANCE[dtype])
        else:
            np.testing.assert_array_equal(got, expected)
    if np.dtype(dtype).kind == "f":
        _same("MatrixPower", _well_conditioned((2, 3, 3), dtype), -2)
    else:
        assert run("MatrixPower", x, -1) is None    # the reference refuses it


@pytest.mark.parametrize("dtype", FLOATS, **IDS)
def test_pdist(dtype):
    x = values((5, 3), dtype)
    x[1] = x[0]
    x[2, 1] = x[3, 1]
    for p in (0.0, 1.0, 2.0, 0.5, np.inf):
        _same("Pdist", x, p)
    assert run("Pdist", values((1, 3), dtype)).shape == (0,)


def test_declines_float16_and_empty():
    half = np.eye(3, dtype=np.float16)
    for op in ("MatrixDeterminant", "MatrixInverse", "MatrixPower"):
        args = (half, 2) if op == "MatrixPower" else (half,)
        assert run(op, *args) is None
    assert run("MatrixDeterminant", np.zeros((0, 2, 2), np.float32)) is None


# Singular and eigenvectors against LAPACK's in float32: their error scales
# with 1 / (the gap between values), so a looser bound than the solves'.
VECTORS = {np.float32: dict(rtol=2e-4, atol=2e-4),
           np.float64: dict(rtol=1e-9, atol=1e-9)}
SHAPES = [(2, 4, 3), (3, 3), (2, 3, 5)]


def _aligned(got, expected):
    """got's columns times the signs that align each with expected's (the
    vectors of a decomposition are unique up to sign)."""
    return got * np.sign(np.sum(got * expected, axis=-2, keepdims=True))


def _orthonormal_columns(q, dtype):
    eye = np.eye(q.shape[-1])
    np.testing.assert_allclose(np.swapaxes(q, -1, -2).astype(np.float64) @ q,
                               np.broadcast_to(eye, q.shape[:-2] + eye.shape),
                               **VECTORS[dtype])


@pytest.mark.parametrize("dtype", FLOATS, **IDS)
def test_qr_and_geqrf_match_lapack(dtype):
    for shape in SHAPES:
        x = values(shape, dtype)
        _same("Geqrf", x)
        for full in (False, True):
            _same("Qr", x, full)      # LAPACK's signs: Householder as dlarfg
    x = values((3, 3), dtype)
    x[1:, 0] = 0                        # a column already reduced: tau 0
    _same("Geqrf", x)


@pytest.mark.parametrize("dtype", FLOATS, **IDS)
def test_svd(dtype):
    reference = registry.get_op("Svd").reference
    for shape in SHAPES:
        x, k = values(shape, dtype), min(shape[-2:])
        for full in (False, True):
            got, expected = run("Svd", x, full), reference(x, full)
            for g, e in zip(got, expected):
                assert g.dtype == e.dtype and g.shape == e.shape
            np.testing.assert_allclose(got[0], expected[0], **TOLERANCE[dtype])
            for g, e in zip(got[1:], expected[1:]):
                sign = np.sign(np.sum(got[1][..., :k] * expected[1][..., :k], axis=-2,
                                      keepdims=True))
                np.testing.assert_allclose(g[..., :k] * sign, e[..., :k],
                                           **VECTORS[dtype])
                _orthonormal_columns(g, dtype)
        _same("Svd", x, False, False)   # values only, zeros for the vectors
    rank_one = np.outer([1, 2, 3], [1, -1]).astype(dtype)   # a zero singular value
    s, u, v = run("Svd", rank_one, True)
    np.testing.assert_allclose(s, reference(rank_one)[0], **TOLERANCE[dtype])
    _orthonormal_columns(u, dtype)
    np.testing.assert_allclose((u[:, :2] * s) @ v.T, rank_one, **VECTORS[dtype])


@pytest.mark.parametrize("dtype", FLOATS, **IDS)
def test_nuclear_norm(dtype):
    x = values((3, 4, 2), dtype)
    for dim in ((0, 2), (2, 0), (-1, 1), (1, 0)):
        for keep in (False, True):
            _same("NuclearNorm", x, dim, keep)
    _same("NuclearNorm", values((2, 5), dtype))
    assert run("NuclearNorm", x) is None    # no dim: 2-D only (the reference raises)


@pytest.mark.parametrize("dtype", FLOATS, **IDS)
def test_symmetric_eigen(dtype):
    x = values((2, 4, 4), dtype)       # read from one triangle: not symmetric
    for lower in (False, True):
        _same("Eigh", x[0], False, lower)
        w, v = run("Eigh", x[0], True, lower)
        w_ref, v_ref = registry.get_op("Eigh").reference(x[0], True, lower)
        assert w.dtype == w_ref.dtype and v.shape == v_ref.shape
        np.testing.assert_allclose(w, w_ref, **TOLERANCE[dtype])
        np.testing.assert_allclose(_aligned(v, v_ref), v_ref, **VECTORS[dtype])
    w, v = run("SelfAdjointEig", x)
    w_ref, v_ref = registry.get_op("SelfAdjointEig").reference(x)
    np.testing.assert_allclose(w, w_ref, **TOLERANCE[dtype])
    np.testing.assert_allclose(_aligned(v, v_ref), v_ref, **VECTORS[dtype])
    _same("SelfAdjointEig", x, False)
    assert run("Eigh", x) is None           # a batch: the reference refuses it


@pytest.mark.parametrize("dtype", FLOATS, **IDS)
def test_lstsq_v2(dtype):
    tall, wide = values((2, 5, 3), dtype), values((4, 6), dtype)
    for driver in ("gels", "gelsy", "gelsd", "gelss"):
        _same("LstsqV2", tall, values((2, 5, 2), dtype), driver)
        _same("LstsqV2", wide, values((4,), dtype), driver)      # one vector
        _same("LstsqV2", tall[0], values((3, 5, 1), dtype), driver)   # broadcast A
    deficient = values((5, 3), dtype)
    deficient[:, 2] = deficient[:, 0]                   # rank 2: minimum norm
    _same("LstsqV2", deficient, values((5, 2), dtype), "gelsd")
    assert run("LstsqV2", tall, values((2, 4, 2), dtype)) is None   # rows differ


def _nearest(got, expected):
    """For each expected eigenvalue (last axis), the index of the nearest
    one of ``got`` (their orders are free)."""
    return np.abs(expected[..., :, None] - got[..., None, :]).argmin(axis=-1)


@pytest.mark.parametrize("dtype", FLOATS, **IDS)
def test_eig(dtype):
    x = values((2, 4, 4), dtype)
    reference = registry.get_op("Eig").reference
    w, v = run("Eig", x, True)
    w_ref, v_ref = reference(x, True)
    assert (w.dtype, v.dtype, w.shape, v.shape) == (w_ref.dtype, v_ref.dtype,
                                                    w_ref.shape, v_ref.shape)
    for part in (np.real, np.imag):     # the golden case's order-free check
        np.testing.assert_allclose(np.sort(part(w)), np.sort(part(w_ref)),
                                   **TOLERANCE[dtype])
    order = _nearest(w, w_ref)
    np.testing.assert_allclose(np.take_along_axis(w, order, -1), w_ref,
                               **TOLERANCE[dtype])
    v = np.take_along_axis(v, order[..., None, :], -1)
    phase = np.sum(v.conj() * v_ref, axis=-2, keepdims=True)
    np.testing.assert_allclose(v * phase / np.abs(phase), v_ref, **VECTORS[dtype])
    w, empty = run("Eig", x[0])
    assert empty.shape == () and empty.dtype == w.dtype
    assert run("Eig", np.eye(3, dtype=np.float16)) is None


@pytest.mark.parametrize("dtype", (np.complex64, np.complex128), **IDS)
def test_matrix_logarithm(dtype):
    x = values((2, 4, 4), np.float64) + 1j * values((2, 4, 4), np.float64)
    _same("MatrixLogarithm", (x + 4 * np.eye(4)).astype(dtype))
    assert run("MatrixLogarithm", np.eye(3, dtype=dtype)) is None   # repeated values


def test_no_convergence_declines():
    """NaN never converges: the iterative kernels decline and the reference
    raises (LAPACK's "did not converge") or answers as it does."""
    x = np.ones((3, 3), np.float32)
    x[0, 1] = np.nan
    for op, args in (("Svd", ()), ("NuclearNorm", ()), ("Eigh", (True, False)),
                     ("Eig", ()), ("LstsqV2", (x[:, :1].copy(),))):
        assert run(op, x, *args) is None, op
    with pytest.raises(np.linalg.LinAlgError):
        registry.get_op("Svd").reference(x)
    _same("SelfAdjointEig", x, False)   # the NaN is outside the lower triangle read
