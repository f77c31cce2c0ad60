"""The Ascend inference ops run as a CPU oracle (issue 14, part 4) against
float64 formulas; their golden cases (golden/ops/rms_norm*, add_rms_norm)
hold independent float64 outputs, as MindSpore has no CPU kernel for them."""
import numpy as np
import pytest


def _rms(x, gamma, epsilon, axes):
    x64 = x.astype(np.float64)
    rstd = 1 / np.sqrt((x64 ** 2).mean(axis=axes, keepdims=True) + epsilon)
    return x64 * rstd * gamma, rstd


@pytest.mark.parametrize("dtype,tol", [("float32", 1e-6), ("float64", 1e-12),
                                       ("float16", 2e-3)])
@pytest.mark.parametrize("gamma_shape,axes", [((8,), (-1,)), ((3, 8), (-2, -1))])
def test_rms_norm(call, rng, dtype, tol, gamma_shape, axes):
    x = rng.standard_normal((2, 3, 8)).astype(dtype)
    gamma = rng.standard_normal(gamma_shape).astype(dtype)
    y, rstd = call("RmsNorm", x, gamma, 1e-5)
    want_y, want_rstd = _rms(x, gamma.astype(np.float64), 1e-5, axes)
    assert y.dtype == dtype and y.shape == x.shape
    assert rstd.dtype == (np.float64 if dtype == "float64" else np.float32)
    assert rstd.shape == x.shape[:3 - len(gamma_shape)] + (1,) * len(gamma_shape)
    np.testing.assert_allclose(y, want_y, rtol=tol, atol=tol)
    np.testing.assert_allclose(rstd, want_rstd, rtol=tol)


def test_rms_norm_default_epsilon_matters_for_tiny_inputs(call):
    x = np.full((1, 4), 1e-4, np.float32)
    y, rstd = call("RmsNorm", x, np.ones(4, np.float32))
    assert rstd[0, 0] == pytest.approx(1 / np.sqrt(1e-8 + 1e-6), rel=1e-5)
    assert y[0, 0] == pytest.approx(1e-4 / np.sqrt(1e-8 + 1e-6), rel=1e-5)


def test_rms_norm_gamma_must_be_the_trailing_shape(call):
    with pytest.raises(ValueError, match=r"gamma's shape \[4\] must be the trailing "
                       r"dims of x's shape \[2, 8\]"):
        call("RmsNorm", np.ones((2, 8), np.float32), np.ones(4, np.float32))


def test_add_rms_norm_returns_the_sum_too(call, rng):
    a, b = (rng.standard_normal((2, 5)).astype(np.float32) for _ in range(2))
    gamma = rng.standard_normal(5).astype(np.float32)
    y, rstd, x = call("AddRmsNorm", a, b, gamma, 1e-6)
    assert x.dtype == np.float32 and np.array_equal(x, a + b)
    want_y, want_rstd = _rms(a + b, gamma.astype(np.float64), 1e-6, (-1,))
    np.testing.assert_allclose(y, want_y, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(rstd, want_rstd, rtol=1e-6)
