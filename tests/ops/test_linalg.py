"""Cross, Cdist, LpNorm, Trace, Ger, MatrixInverse and the determinants against
Python loops in float64, per dtype, with their clear errors."""
import itertools
import math

import numpy as np
import pytest



def sample(rng, shape, dtype):
    if "int" in dtype:
        return rng.integers(-9, 9, shape).astype(dtype)
    return rng.uniform(-3, 3, shape).astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64", "int32", "int64"])
@pytest.mark.parametrize("shapes, dim", [(((2, 3, 4), (2, 3, 4)), 1),
                                         (((4, 3), (1, 3)), -65530),
                                         (((3, 2), (3, 1)), 0), (((5, 3), (3,)), -1)])
def test_cross(call, close, rng, dtype, shapes, dim):
    a, b = (sample(rng, s, dtype) for s in shapes)
    got = call("Cross", a, b, dim)
    a, b = np.broadcast_arrays(a.astype(np.float64), b.astype(np.float64))
    axis = 0 if dim == 0 else (1 if dim == 1 else a.ndim - 1)
    a, b = np.moveaxis(a, axis, -1), np.moveaxis(b, axis, -1)
    want = np.stack([a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
                     a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
                     a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]], -1)
    close(got, np.moveaxis(want, -1, axis), dtype)
    with pytest.raises(ValueError, match=r"Cross: dim 0 must be an axis of length 3 of "
                                         r"the broadcast shape \(2, 3\)"):
        call("Cross", np.ones((2, 3), dtype), np.ones((2, 3), dtype), 0)


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
@pytest.mark.parametrize("p", [2.0, 1.0, 0.5, 3.0, 0.0, math.inf])
@pytest.mark.parametrize("shapes", [((3, 4), (5, 4)), ((2, 3, 2), (2, 1, 2)),
                                    ((0, 3), (2, 3))])
def test_cdist(call, close, rng, dtype, p, shapes):
    x1, x2 = (sample(rng, s, dtype) for s in shapes)
    x2[..., :1, 0] = x1[..., :1, 0] if x1.shape[-2] and x2.shape[-2] else x2[..., :1, 0]
    got = call("Cdist", x1, x2, p)
    want = np.zeros(got.shape)
    for index in itertools.product(*map(range, got.shape)):
        *lead, i, j = index
        diff = np.abs(x1[(*lead, i)].astype(np.float64) - x2[(*lead, j)])
        want[index] = (np.count_nonzero(diff) if p == 0 else diff.max() if p == math.inf
                       else (diff ** p).sum() ** (1 / p))
    close(got, want, dtype)


def test_cdist_errors(call):
    with pytest.raises(ValueError, match=r"Cdist: x1 \(3, 4\) and x2 \(5, 3\) need the "):
        call("Cdist", np.ones((3, 4), np.float32), np.ones((5, 3), np.float32))
    with pytest.raises(ValueError, match=r"and p -1.0 must be >= 0"):
        call("Cdist", np.ones((3, 4), np.float32), np.ones((5, 4), np.float32), -1.0)


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
@pytest.mark.parametrize("axis, p, keep", [((1,), 2, False), ((0, 2), 1, True),
                                           ((-1,), 3, False), ((0, 1, 2), 0, False)])
def test_lp_norm(call, close, rng, dtype, axis, p, keep):
    x = sample(rng, (2, 3, 4), dtype)
    x[0, 0, 0] = 0
    got = call("LpNorm", x, axis=axis, p=p, keep_dims=keep)
    wide = np.abs(x.astype(np.float64))
    want = (np.count_nonzero(wide, axis=axis, keepdims=keep) if p == 0
            else (wide ** p).sum(axis=axis, keepdims=keep) ** (1 / p))
    close(got, want, dtype)
    with pytest.raises(ValueError, match=r"LpNorm: axis \(3,\) out of range for input "
                                         r"of rank 3"):
        call("LpNorm", x, axis=(3,))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_trace_and_ger(call, close, rng, dtype):
    x = sample(rng, (3, 4), dtype)
    close(call("Trace", x), np.array(sum(x[i, i] for i in range(3)), dtype), dtype)
    u, v = sample(rng, (3,), dtype), sample(rng, (2,), dtype)
    close(call("Ger", u, v), np.array([[a * b for b in v] for a in u], dtype), dtype)
    with pytest.raises(ValueError, match=r"Trace: input must be 2-D, got shape \(3,\)"):
        call("Trace", u)
    with pytest.raises(ValueError, match=r"Ger: input and vec2 must be 1-D"):
        call("Ger", x, v)


def det(m):
    """Laplace expansion along the first row."""
    if len(m) == 1:
        return m[0][0]
    return sum((-1) ** j * m[0][j] * det([row[:j] + row[j + 1:] for row in m[1:]])
               for j in range(len(m)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_inverse_and_determinants(call, rng, dtype):
    x = (rng.uniform(-1, 1, (2, 3, 3)) + 2 * np.eye(3)).astype(dtype)
    tolerance = 1e-2 if dtype == "float16" else 1e-5
    inverse = call("MatrixInverse", x)
    assert inverse.dtype == x.dtype
    np.testing.assert_allclose(x.astype(np.float64) @ inverse,
                               np.broadcast_to(np.eye(3), x.shape), atol=tolerance * 5)
    np.testing.assert_allclose(call("MatrixInverse", x, adjoint=True),
                               np.swapaxes(inverse, -1, -2), rtol=tolerance,
                               atol=tolerance)
    want = [det(m.astype(np.float64).tolist()) for m in x]
    np.testing.assert_allclose(call("MatrixDeterminant", x), want, rtol=tolerance)
    sign, logabs = call("LogMatrixDeterminant", -x)
    np.testing.assert_allclose(sign * np.exp(logabs.astype(np.float64)),
                               [-d for d in want], rtol=tolerance * 5)
    singular = np.zeros((2, 2), dtype)
    sign, logabs = call("LogMatrixDeterminant", singular)
    assert sign == 0 and logabs == -np.inf
    with pytest.raises(ValueError, match=r"MatrixInverse: x holds a singular matrix"):
        call("MatrixInverse", singular)
    with pytest.raises(ValueError, match=r"MatrixDeterminant: input must be "
                                         r"\(..., n, n\), got shape \(2, 3\)"):
        call("MatrixDeterminant", x[0, :2])
