"""Eigh, SelfAdjointEig, Eig, Qr, Geqrf, Svd and MatrixLogarithm: each
decomposition multiplied back in float64 (signs and orders are LAPACK's;
the golden cases compare MindSpore's by sign-free quantities), its outputs'
shapes and dtypes, and the clear errors."""
import threading

import numpy as np
import pytest

TOL = {"float32": 1e-4, "float64": 1e-10}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_symmetric_eigen(call, rng, dtype):
    x = rng.uniform(-1, 1, (3, 3)).astype(dtype)
    for lower, half in ((True, np.tril(x, -1)), (False, np.triu(x, 1))):
        sym = (half + half.T + np.diag(np.diag(x))).astype(np.float64)
        w, v = call("Eigh", x, True, lower)
        assert w.dtype == v.dtype == dtype and list(w) == sorted(w)
        np.testing.assert_allclose(v @ np.diag(w) @ v.T, sym, atol=TOL[dtype])
    assert call("Eigh", x, False).shape == (3,)
    batch = np.stack([x, x.T])
    w, v = call("SelfAdjointEig", batch)
    sym = np.tril(batch) + np.swapaxes(np.tril(batch, -1), 1, 2)
    np.testing.assert_allclose(v @ (w[..., None] * np.swapaxes(v, 1, 2)), sym,
                               atol=TOL[dtype])
    assert not call("SelfAdjointEig", batch, False)[1].any()
    with pytest.raises(ValueError, match=r"Eigh: x must be one \(n, n\) matrix, got "
                       r"shape \[2, 3, 3\]"):
        call("Eigh", batch)


def test_eig_is_complex(call, rng):
    x = rng.uniform(-1, 1, (2, 4, 4)).astype(np.float32)
    w, v = call("Eig", x, True)
    assert w.dtype == v.dtype == np.complex64 and v.shape == x.shape
    np.testing.assert_allclose(x @ v, v * w[:, None, :], atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1, rtol=1e-5)
    w64, v64 = call("Eig", x[0].astype(np.float64))
    assert w64.dtype == np.complex128 and v64.shape == () and v64 == 0


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5)])
def test_qr_geqrf_svd(call, rng, dtype, shape):
    x = rng.uniform(-1, 1, shape).astype(dtype)
    x64, k, tol = x.astype(np.float64), min(shape[-2:]), TOL[dtype]
    q, r = call("Qr", x)
    assert q.shape[-1] == r.shape[-2] == k and q.dtype == dtype
    np.testing.assert_allclose(q @ r, x64, atol=tol)
    assert not np.tril(r, -1).any()
    q, r = call("Qr", x, True)
    assert q.shape[-1] == q.shape[-2] == shape[-2]
    np.testing.assert_allclose(q @ r, x64, atol=tol)
    y, tau = call("Geqrf", x)
    assert y.shape == x.shape and tau.shape == shape[:-2] + (k,)
    np.testing.assert_allclose(np.triu(y)[..., :k, :], call("Qr", x)[1], atol=tol)
    s, u, v = call("Svd", x)
    assert list(s.reshape(-1, k)[0]) == sorted(s.reshape(-1, k)[0], reverse=True)
    np.testing.assert_allclose((u * s[..., None, :]) @ np.swapaxes(v, -1, -2), x64,
                               atol=tol)
    s2, u2, v2 = call("Svd", x, True, False)
    np.testing.assert_allclose(s2, s, rtol=tol)
    assert u2.shape == v2.shape == (1,) and not u2.any()


def test_geqrf_reflectors_rebuild_q(call, rng):
    x = rng.uniform(-1, 1, (4, 3))
    y, tau = call("Geqrf", x)
    q = np.eye(4)
    for k in range(3):
        vec = np.concatenate([np.zeros(k), [1.0], y[k + 1:, k]])
        q = q @ (np.eye(4) - tau[k] * np.outer(vec, vec))
    np.testing.assert_allclose(q[:, :3] @ np.triu(y)[:3], x, atol=1e-12)


def test_matrix_logarithm(call, rng):
    x = (2 * np.eye(3) + rng.uniform(-0.3, 0.3, (2, 3, 3))
         + 1j * rng.uniform(-0.3, 0.3, (2, 3, 3))).astype(np.complex64)
    y = call("MatrixLogarithm", x)
    assert y.dtype == np.complex64
    w, v = np.linalg.eig(y.astype(np.complex128))      # exp(y) back
    np.testing.assert_allclose((v * np.exp(w)[:, None, :]) @ np.linalg.inv(v), x,
                               atol=1e-5)
    with pytest.raises(TypeError, match=r"MatrixLogarithm: x must be complex64 or "
                       r"complex128, got float32"):
        call("MatrixLogarithm", x.real.copy())
    with pytest.raises(ValueError, match=r"MatrixLogarithm: x is not diagonalisable"):
        call("MatrixLogarithm", np.array([[1, 1], [0, 1]], np.complex64))


@pytest.mark.parametrize("op", ["Svd", "LstsqV2"])
@pytest.mark.parametrize("value", [np.inf, -np.inf])
def test_an_infinity_in_an_svd_matrix_is_refused(call, op, value):
    """NumPy's LAPACK never returns from an SVD of a matrix holding an
    infinity; the op says so instead (run in a thread of its own, so that
    a hang fails the test instead of stopping the suite)."""
    a = np.arange(12, dtype=np.float32).reshape(4, 3)
    a[2, 1] = value
    inputs = (a,) if op == "Svd" else (a, np.ones(4, a.dtype))
    outcome = []

    def attempt():
        try:
            call(op, *inputs)
        except ValueError as error:
            outcome.append(str(error))
    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert outcome and "infinity at index (2, 1)" in outcome[0] \
        and outcome[0].startswith(op)
