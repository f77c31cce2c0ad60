"""refinfer/ops/_kernels/attention.py: the plan's fused attention
(passes/attention.py) against float64 NumPy on random shapes and dtypes:
heads read and written through permuted views, masks broadcast every way,
blocks of heads that end inside a thread's range and a batch item, and
the operands it declines (the plan then runs the nodes)."""
import numpy as np
import pytest

from refinfer.ops._kernels import attention as kernels
from refinfer.ops._kernels.attention import attention

TESTED = {"Softmax", "BatchMatMul"}     # as the plan fuses them
rng = np.random.default_rng(30)
HEADS = (0, 2, 1, 3)            # (B, S, H, D) <-> (B, H, S, D)


def expected(q, k, v, mask, scale, transpose_b=True):
    """softmax(Q K^T * scale + mask) V in float64, Q K V (B, H, S, D)
    (K (B, H, D, S) where not transpose_b)."""
    keys = k.swapaxes(-1, -2) if transpose_b else k
    s = np.matmul(q.astype(np.float64), keys) * scale
    if mask is not None:
        s = s + mask
    e = np.exp(s - s.max(-1, keepdims=True))
    return np.matmul(e / e.sum(-1, keepdims=True), v.astype(np.float64))


def tokens(batch, n, heads, depth, dtype):
    """(B, S, H, D): heads as a projection's output splits them."""
    return rng.standard_normal((batch, n, heads, depth)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("batch, heads, n_q, n_k, depth, mask_shape", [
    (1, 12, 16, 16, 8, (16, 16)),           # causal, alike for every head
    (2, 3, 5, 7, 4, (2, 1, 1, 7)),          # padding: one row per item
    (2, 3, 6, 6, 3, (2, 3, 6, 6)),          # a bias per head
    (1, 4, 9, 9, 5, (4, 1, 9)),             # per head, rank 3
    (3, 2, 4, 11, 6, None)])
@pytest.mark.parametrize("block", [kernels.SCORES_FLOATS, 40])
def test_the_attention_of_split_heads_equals_numpy(
        monkeypatch, dtype, batch, heads, n_q, n_k, depth, mask_shape, block):
    """Q, K, V read through (0, 2, 1, 3) views, the output written through
    the view that joins the heads; ``block`` 40 floats: a block of one or
    two heads' scores, so that blocks end inside a thread's range of heads
    and at each batch item's last head, and the mask's row follows the
    head across them."""
    monkeypatch.setattr(kernels, "SCORES_FLOATS", block)
    q, v = tokens(batch, n_q, heads, depth, dtype), \
        tokens(batch, n_k, heads, depth + 1, dtype)
    k = tokens(batch, n_k, heads, depth, dtype)
    mask = None if mask_shape is None else \
        rng.uniform(-3, 3, mask_shape).astype(dtype)
    got = attention(q, k, v, mask, HEADS, HEADS, HEADS, HEADS, True, 0.3,
                    (-1,))
    want = expected(*(x.transpose(HEADS) for x in (q, k, v)), mask, 0.3)
    tolerance = 2e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want.transpose(HEADS), rtol=tolerance,
                               atol=tolerance)


def test_operands_as_they_are_and_keys_already_transposed():
    """No Transposes taken in (dims None), K^T given as it is
    (transpose_b False, K read through (0, 2, 3, 1)), a masked row of
    -1e9 (its exponentials flushed to zero)."""
    q = rng.standard_normal((2, 3, 5, 4)).astype(np.float32)
    k = tokens(2, 6, 3, 4, np.float32)
    v = rng.standard_normal((2, 3, 6, 2)).astype(np.float32)
    mask = np.where(np.arange(6) < 4, 0, -1e9).astype(np.float32)
    got = attention(q, k, v, mask, None, (0, 2, 3, 1), None, None, False, 1.0,
                    (3,))
    want = expected(q, k.transpose(0, 2, 3, 1), v, mask, 1.0, False)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=2e-6)


@pytest.mark.parametrize("change", [
    "rank", "dtype", "mask dtype", "mask shape", "heads", "axis", "empty"])
def test_operands_that_do_not_fit_are_declined(change):
    q = k = v = tokens(1, 4, 2, 3, np.float32)
    mask, axis = np.zeros((4, 4), np.float32), (-1,)
    if change == "rank":
        q = q[0]
    elif change == "dtype":
        q = q.astype(np.float64)
    elif change == "mask dtype":
        mask = mask.astype(np.float16)
    elif change == "mask shape":
        mask = np.zeros((3, 4), np.float32)
    elif change == "heads":
        k = tokens(1, 4, 3, 3, np.float32)
    elif change == "axis":
        axis = (2,)
    else:
        q = tokens(1, 0, 2, 3, np.float32)
    assert attention(q, k, v, mask, HEADS, HEADS, HEADS, None, True, 1.0,
                     axis) is None
