"""The Ascend inference ops run as a CPU oracle (issue 14, part 4) against
float64 formulas; their golden cases (golden/ops/rms_norm*, add_rms_norm,
rope_*) hold independent float64 outputs, as MindSpore has no CPU kernel
for them."""
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


def _rotate_pairs(x, interleaved):
    """Each (even, odd) or (first half, second half) pair rotated by 90 degrees."""
    x = x.astype(np.float64)
    out = np.empty_like(x)
    half = x.shape[-1] // 2
    for i in range(half):
        a, b = (2 * i, 2 * i + 1) if interleaved else (i, i + half)
        out[..., a], out[..., b] = -x[..., b], x[..., a]
    return out


@pytest.mark.parametrize("mode", [0, 1])
@pytest.mark.parametrize("dtype,tol", [("float32", 1e-6), ("float16", 2e-3)])
def test_rotary_position_embedding(call, rng, mode, dtype, tol):
    x = rng.uniform(-2, 2, (2, 3, 4, 8)).astype(dtype)
    cos, sin = (rng.uniform(-1, 1, (1, 1, 4, 8)).astype(dtype) for _ in range(2))
    got = call("RotaryPositionEmbedding", x, cos, sin, mode)
    want = x * cos.astype(np.float64) + _rotate_pairs(x, mode == 1) * sin
    assert got.dtype == dtype and got.shape == x.shape
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def test_rotary_position_embedding_is_a_rotation_for_matching_angles(call, rng):
    """With cos = cos(theta), sin = sin(theta) per pair, each pair keeps its norm."""
    x = rng.standard_normal((1, 1, 3, 4)).astype(np.float64)
    theta = rng.uniform(0, 6, (1, 1, 3, 2))
    cos, sin = (np.concatenate((f(theta), f(theta)), axis=-1) for f in (np.cos, np.sin))
    got = call("RotaryPositionEmbedding", x, cos, sin, 0)
    np.testing.assert_allclose(_pair_norms(got), _pair_norms(x), rtol=1e-12)


def _pair_norms(v):
    """Squared lengths of the rotate_half pairs (v[i], v[i + D/2])."""
    half = v.shape[-1] // 2
    return v[..., :half] ** 2 + v[..., half:] ** 2


@pytest.mark.parametrize("shape,mode,message", [
    ((2, 4, 7), 0, r"x must be 4-D with an even last dim, got shape \[2, 4, 7\]"),
    ((1, 2, 4, 7), 0, r"got shape \[1, 2, 4, 7\]"),
    ((1, 2, 4, 8), 2, r"mode must be 0 \(rotate_half\) or 1 \(interleaved\), got 2"),
])
def test_rotary_position_embedding_errors(call, shape, mode, message):
    x = np.ones(shape, np.float32)
    with pytest.raises(ValueError, match=message):
        call("RotaryPositionEmbedding", x, x, x, mode)


def test_moe_gating_top_k_softmax(call):
    x = np.log(np.array([[1, 4, 2, 4], [3, 1, 1, 1], [1, 1, 1, 1]], np.float32))
    finished = np.array([False, True, False])
    y, experts, rows = call("MoeGatingTopKSoftmax", x, finished, 3)
    np.testing.assert_allclose(y, [[4 / 11, 4 / 11, 2 / 11], [.5, 1 / 6, 1 / 6],
                                   [.25, .25, .25]], rtol=1e-6)
    # equal probabilities: lower expert first; a finished row's experts are E = 4
    assert experts.dtype == np.int32
    assert experts.tolist() == [[1, 3, 2], [4, 4, 4], [0, 1, 2]]
    assert rows.dtype == np.int32 and rows.tolist() == [[0, 3, 6], [1, 4, 7], [2, 5, 8]]


def test_moe_gating_top_k_softmax_3d_and_errors(call, rng):
    x = rng.standard_normal((2, 3, 5)).astype(np.float16)
    y, experts, rows = call("MoeGatingTopKSoftmax", x, None, 2)
    assert y.dtype == np.float16 and y.shape == experts.shape == rows.shape == (2, 3, 2)
    assert rows[1, 2].tolist() == [5, 11]       # row 5 of 6, k = 2
    with pytest.raises(ValueError, match=r"k in \[0, 5\], got x of shape \[2, 3, 5\] "
                       "and k=6"):
        call("MoeGatingTopKSoftmax", x, None, 6)
    with pytest.raises(ValueError, match=r"finished must have shape \[2, 3\], got \[3\]"):
        call("MoeGatingTopKSoftmax", x, np.zeros(3, bool), 1)
