"""The Ascend inference ops run as a CPU oracle (issue 14, part 4) against
float64 formulas; their golden cases (golden/ops/rms_norm*, add_rms_norm,
rope_*, reshape_and_cache*) hold independent float64 outputs, as MindSpore has no CPU kernel
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


@pytest.mark.parametrize("op, position", [("RotaryPositionEmbedding", 0),
                                          ("ApplyRotaryPosEmb", 1)])
def test_rotary_embeddings_refuse_a_tensor_that_is_not_float_by_name(call, op,
                                                                     position):
    """Fuzz seed 52: a bool key reached NumPy's negation inside the
    rotation (TypeError there); now the argument is named."""
    x = np.ones((1, 2, 4, 8) if op == "RotaryPositionEmbedding" else (4, 16),
                np.float32)
    table = np.ones((1, 2, 4, 8) if op == "RotaryPositionEmbedding" else (4, 8),
                    np.float32)
    args = [x, table, table, 0] if op == "RotaryPositionEmbedding" \
        else [x, x, table, table, np.zeros(2, np.int32), 2]
    args[position] = args[position].astype(bool)
    name = "x" if position == 0 else "key"
    with pytest.raises(TypeError, match=rf"{op}: {name} must be float16, "
                                        r"float32, float64, got bool\["):
        call(op, *args)


def test_apply_rotary_pos_emb_refuses_a_table_that_is_not_2d(call):
    """Fuzz seed 58: a 0-d cos reached an index of its shape."""
    x = np.ones((4, 16), np.float32)
    with pytest.raises(ValueError, match=r"ApplyRotaryPosEmb: query \[4, 16\] must be "
                                         r".* got cos \[\] and sin \[4, 8\]"):
        call("ApplyRotaryPosEmb", x, x, np.float32(1), np.ones((4, 8), np.float32),
             np.zeros(2, np.int32), 2)


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


# --------------------------------------------------------------------------
# Attention (FlashAttentionScore, PromptFlashAttention, IncreFlashAttention,
# PagedAttention): one reference; these check it against a per-row formula
# and the ops' adapters, errors included. The golden cases (fas_*, pfa_*,
# ifa_*, paged_attention_*) hold independent float64 loops.
# --------------------------------------------------------------------------
def _softmax_rows(q, k, v, scale, keep):
    """q (S1, D), k (S2, D), v (S2, Dv) in float64, keep (S1, S2) bool."""
    out = np.zeros((len(q), v.shape[1]))
    for i in range(len(q)):
        s = scale * (k[keep[i]] @ q[i].astype(np.float64))
        w = np.exp(s - s.max())
        out[i] = w @ v[keep[i]] / w.sum()
    return out


@pytest.mark.parametrize("mode,keep", [
    (2, lambda i, j: j <= i), (3, lambda i, j: j <= i + 2),
    (4, lambda i, j: -1 <= j - i - 2 <= 0)])
def test_flash_attention_score_sparse_modes(call, rng, mode, keep):
    q = rng.standard_normal((1, 3, 8)).astype(np.float32)      # BSH, 2 heads
    k, v = (rng.standard_normal((1, 5, 4)).astype(np.float32) for _ in range(2))
    smax, ssum, sout, out = call("FlashAttentionScore", q, k, v, None, None, None, None,
                                 None, None, None, head_num=2, scale_value=0.3,
                                 pre_tokens=1, next_tokens=0, sparse_mode=mode)
    allowed = np.array([[keep(i, j) for j in range(5)] for i in range(3)])
    for h in range(2):      # both query heads read the one key/value head (GQA)
        want = _softmax_rows(q[0, :, 4 * h:4 * h + 4], k[0], v[0], 0.3, allowed)
        np.testing.assert_allclose(out[0, :, 4 * h:4 * h + 4], want, rtol=1e-5, atol=1e-6)
        scores = np.where(allowed, 0.3 * q[0, :, 4 * h:4 * h + 4] @ k[0].T, -np.inf)
        np.testing.assert_allclose(smax[0, h, :, 3], scores.max(1), rtol=1e-5)
        np.testing.assert_allclose(ssum[0, h, :, 0],
                                   np.exp(scores - scores.max(1)[:, None]).sum(1),
                                   rtol=1e-5)
    assert smax.shape == ssum.shape == (1, 2, 3, 8) and smax.dtype == np.float32
    assert sout.shape == (1,) and not sout.any()


def test_flash_attention_score_layouts_agree(call, rng):
    """BNSD, BSND, BSH and SBH hold the same numbers in different orders."""
    q, k, v = (rng.standard_normal((2, 2, s, 4)).astype(np.float64) for s in (3, 5, 5))
    shift = rng.standard_normal((1, 2, 3, 5))
    base = call("FlashAttentionScore", q, k, v, shift, None, None, None, None, None,
                None, head_num=2, input_layout="BNSD")[3]
    moved = {"BSND": lambda x: x.transpose(0, 2, 1, 3),
             "BSH": lambda x: x.transpose(0, 2, 1, 3).reshape(2, x.shape[2], 8),
             "SBH": lambda x: x.transpose(2, 0, 1, 3).reshape(x.shape[2], 2, 8)}
    for layout, move in moved.items():
        got = call("FlashAttentionScore", move(q), move(k), move(v), shift, None, None,
                   None, None, None, None, head_num=2, input_layout=layout)[3]
        np.testing.assert_allclose(got, move(base), rtol=1e-12, err_msg=layout)
    # real_shift goes in before scaling: (QK^T + shift) * scale
    want = _softmax_rows(q[1, 1], k[1, 1], v[1, 1], 1.0, np.ones((3, 5), bool))
    assert not np.allclose(base[1, 1], want)
    scores = (q[1, 1] @ k[1, 1].T + shift[0, 1]) * 0.5
    w = np.exp(scores - scores.max(1, keepdims=True))
    halved = call("FlashAttentionScore", q, k, v, shift, None, None, None, None, None,
                  None, head_num=2, scale_value=0.5, input_layout="BNSD")[3]
    np.testing.assert_allclose(halved[1, 1], w @ v[1, 1] / w.sum(1, keepdims=True),
                               rtol=1e-12)


def test_flash_attention_score_fully_masked_row_is_zero(call, rng):
    q, k, v = (rng.standard_normal((1, 1, 2, 4)).astype(np.float32) for _ in range(3))
    mask = np.array([[1, 1], [0, 1]], np.uint8)
    smax, ssum, _, out = call("FlashAttentionScore", q, k, v, None, None, None, mask,
                              None, None, None, input_layout="BNSD", sparse_mode=1)
    assert not out[0, 0, 0].any()
    assert smax[0, 0, 0, 0] == -np.inf and ssum[0, 0, 0, 0] == 0
    np.testing.assert_allclose(out[0, 0, 1], v[0, 0, 0], rtol=1e-6)


@pytest.mark.parametrize("attrs,message", [
    (dict(keep_prob=0.9), r"FlashAttentionScore: keep_prob must be 1 for inference "
                          r"\(dropout draws random numbers\), got 0.9"),
    (dict(sparse_mode=6), r"FlashAttentionScore: sparse_mode must be one of 0 "
                          r"defaultMask, .*4 band, got 6"),
    (dict(sparse_mode=1), r"FlashAttentionScore: sparse_mode 1 \(allMask\) needs "
                          r"attn_mask"),
    (dict(head_num=3), r"FlashAttentionScore: query must be BSH with H a multiple of "
                       r"3 heads, got shape \[1, 2, 8\]"),
    (dict(input_layout=5), r"FlashAttentionScore: input_layout TH is not supported"),
])
def test_flash_attention_score_errors(call, attrs, message):
    x = np.ones((1, 2, 8), np.float32)
    with pytest.raises(ValueError, match=message):
        call("FlashAttentionScore", x, x, x, None, None, None, None, None, None, None,
             **{"head_num": 2, **attrs})


def test_attention_shapes_must_agree(call):
    q, k = np.ones((1, 2, 3, 4), np.float32), np.ones((1, 2, 5, 8), np.float32)
    with pytest.raises(ValueError, match=r"PromptFlashAttention: query \(B, N1, S1, D\) "
                       r"\[1, 2, 3, 4\], key \(B, N2, S2, D\) \[1, 2, 5, 8\] and value "
                       r"\(B, N2, S2, Dv\) \[1, 2, 5, 8\] disagree \(as BNSD\)"):
        call("PromptFlashAttention", q, k, k, num_heads=2, input_layout="BNSD")


def test_flash_attention_score_refuses_dropout_masks(call):
    x = np.ones((1, 2, 8), np.float32)
    with pytest.raises(ValueError, match=r"FlashAttentionScore: drop_mask is not "
                       r"supported by refinfer \(float attention without quantisation "
                       r"or dropout\); pass None"):
        call("FlashAttentionScore", x, x, x, None, np.ones((1, 2, 2, 1), np.uint8),
             None, None, None, None, None, head_num=2)


def test_flash_attention_score_tnd_is_per_sequence(call, rng):
    q = rng.standard_normal((5, 1, 4)).astype(np.float64)
    k, v = (rng.standard_normal((7, 1, 4)) for _ in range(2))
    smax, _, _, out = call("FlashAttentionScore", q, k, v, None, None, None, None,
                           None, (2, 5), (3, 7), input_layout="TND", sparse_mode=3)
    assert smax.shape == (5, 1, 8)
    first = _softmax_rows(q[:2, 0], k[:3, 0], v[:3, 0], 1.0,
                          np.tril(np.ones((2, 3), bool), 1))
    second = _softmax_rows(q[2:, 0], k[3:, 0], v[3:, 0], 1.0,
                           np.tril(np.ones((3, 4), bool), 1))
    np.testing.assert_allclose(out[:, 0], np.concatenate([first, second]), rtol=1e-12)
    with pytest.raises(ValueError, match=r"TND needs actual_seq_qlen and "
                       r"actual_seq_kvlen of one length, got \(2, 5\) and None"):
        call("FlashAttentionScore", q, k, v, None, None, None, None, None, (2, 5), None,
             input_layout="TND")
    with pytest.raises(ValueError, match=r"TND value \[\] must be \(T, N, D\) with T "
                       r"the last actual_seq_kvlen 7"):      # seed 53's
        call("FlashAttentionScore", q, k, np.float64(1), None, None, None, None, None,
             (2, 5), (3, 7), input_layout="TND", sparse_mode=3)


def test_prompt_flash_attention_lengths_and_causal_default(call, rng):
    q = rng.standard_normal((2, 1, 4, 4)).astype(np.float16)     # BNSD
    k, v = (rng.standard_normal((2, 1, 4, 4)).astype(np.float16) for _ in range(2))
    mask = np.zeros((4, 4), bool)
    out = call("PromptFlashAttention", q, k, v, mask, (4, 2), (4, 3),
               input_layout="BNSD")
    assert out.dtype == np.float16 and out.shape == q.shape
    causal = np.tril(np.ones((4, 4), bool))           # next_tokens=0 with a mask
    np.testing.assert_allclose(out[0, 0], _softmax_rows(q[0, 0], k[0, 0], v[0, 0], 1.0,
                                                        causal), rtol=2e-3, atol=2e-3)
    keep = causal & (np.arange(4) < 3)                # batch 1: 3 keys, 2 queries
    np.testing.assert_allclose(out[1, 0, :2], _softmax_rows(
        q[1, 0], k[1, 0], v[1, 0], 1.0, keep)[:2], rtol=2e-3, atol=2e-3)
    assert not out[1, 0, 2:].any()                    # rows past the query length
    with pytest.raises(ValueError, match=r"PromptFlashAttention: quant_scale2 is not "
                       r"supported by refinfer"):
        call("PromptFlashAttention", q, k, v, None, None, None, None, None, None, None,
             np.ones(1, np.float32), input_layout="BNSD")
    with pytest.raises(ValueError, match=r"PromptFlashAttention: actual_seq_lengths "
                       r"must hold one length or one per batch entry \(2\), got 3"):
        call("PromptFlashAttention", q, k, v, mask, (4, 2, 1), input_layout="BNSD")


def test_incre_flash_attention_joins_per_batch_caches(call, rng):
    q = rng.standard_normal((2, 1, 8)).astype(np.float32)          # BSH, 2 heads
    ks, vs = ([rng.standard_normal((1, 5, 4)).astype(np.float32) for _ in range(2)]
              for _ in range(2))
    mask = np.array([[0, 0, 1, 0, 0], [0, 0, 0, 0, 0]], bool)
    out = call("IncreFlashAttention", q, ks, vs, mask, (5, 2), num_heads=2,
               num_key_value_heads=1)
    keep = [~mask[0], np.arange(5) < 2]
    for b in range(2):
        for h in range(2):
            want = _softmax_rows(q[b, :, 4 * h:4 * h + 4], ks[b][0], vs[b][0], 1.0,
                                 keep[b][None])
            np.testing.assert_allclose(out[b, :, 4 * h:4 * h + 4], want, rtol=1e-5)
    with pytest.raises(ValueError, match=r"IncreFlashAttention: block_table is not "
                       r"supported"):
        call("IncreFlashAttention", q, ks, vs, None, None, None, None, None, None,
             None, None, None, None, np.zeros((2, 1), np.int32))
    with pytest.raises(ValueError, match=r"IncreFlashAttention: actual_seq_lengths "
                       r"must hold one length or one per batch entry \(2\), got 3"):
        call("IncreFlashAttention", q, ks, vs, None, (5, 2, 1), num_heads=2,
             num_key_value_heads=1)
    for bad in (np.zeros((), bool), np.zeros((2, 6), bool), np.zeros((1, 5), bool)):
        with pytest.raises(ValueError, match=r"IncreFlashAttention: attn_mask must be "
                           r"\[2, 5\] or \[2, 1, 5\] or \[2, 1, 1, 5\] \(batch 2, 5 "
                           r"cached keys\), got \[" + ", ".join(map(str, bad.shape))):
            call("IncreFlashAttention", q, ks, vs, bad, None, num_heads=2,
                 num_key_value_heads=1)


def test_paged_attention_reads_its_blocks(call, rng):
    cache_k, cache_v = (rng.standard_normal((4, 2, 1, 4)).astype(np.float32)
                        for _ in range(2))
    q = rng.standard_normal((2, 1, 4)).astype(np.float32)          # (T, N, D)
    tables = np.array([[3, 0], [1, -1]], np.int32)
    out = call("PagedAttention", q, cache_k, cache_v, tables, np.array([3, 2], np.int32),
               head_num=1, scale_value=0.5, kv_head_num=1)
    assert out.shape == (2, 1, 4)
    keys = np.concatenate([cache_k[3], cache_k[0]])[:3, 0]
    values = np.concatenate([cache_v[3], cache_v[0]])[:3, 0]
    np.testing.assert_allclose(out[0], _softmax_rows(q[0], keys, values, 0.5,
                                                     np.ones((1, 3), bool)), rtol=1e-5)
    # multi-latent attention: no value cache, values are the keys' first features
    mla = call("PagedAttention", q, cache_k, None, tables, np.array([3, 2], np.int32),
               head_num=1, scale_value=0.5, kv_head_num=1, mla_v_dim=2)
    assert mla.shape == (2, 1, 2)
    np.testing.assert_allclose(mla[0], _softmax_rows(q[0], keys, keys[:, :2], 0.5,
                                                     np.ones((1, 3), bool)), rtol=1e-5)
    with pytest.raises(ValueError, match=r"PagedAttention: context length 5 must be in "
                       r"\[1, 4\] and its block ids in \[0, 4\), got blocks \[3, 0\]"):
        call("PagedAttention", q, cache_k, cache_v, tables, np.array([5, 2], np.int32),
             head_num=1, kv_head_num=1)
    with pytest.raises(ValueError, match=r"PagedAttention: alibi_mask is not supported"):
        call("PagedAttention", q, cache_k, cache_v, tables, np.array([3, 2], np.int32),
             None, None, None, None, np.zeros((2, 3), np.float32))


def test_reshape_and_cache_writes_slots_and_leaves_the_caches_alone(call, rng):
    key_cache, value_cache = (rng.standard_normal((2, 3, 2, 4)).astype(np.float16)
                              for _ in range(2))
    before = key_cache.copy()
    key = rng.standard_normal((1, 2, 8)).astype(np.float16)       # (B, S, H)
    value = rng.standard_normal((2, 8)).astype(np.float16)        # (T, H)
    new_k, new_v = call("ReshapeAndCache", key, value, key_cache, value_cache,
                        np.array([4, 0], np.int32))
    np.testing.assert_array_equal(key_cache, before)              # a new array
    np.testing.assert_array_equal(new_k[1, 1], key[0, 0].reshape(2, 4))  # slot 4
    np.testing.assert_array_equal(new_v[0, 0], value[1].reshape(2, 4))   # slot 0
    untouched = np.ones((2, 3), bool)
    untouched[1, 1] = untouched[0, 0] = False
    np.testing.assert_array_equal(new_k[untouched], key_cache[untouched])
    keys_only = call("ReshapeAndCache", key, None, key_cache, None,
                     np.array([5, 1], np.int32))
    assert keys_only[1] is None
    np.testing.assert_array_equal(keys_only[0][0, 1], key[0, 1].reshape(2, 4))


@pytest.mark.parametrize("key_shape,slots,message", [
    ((2, 8), [6, -1], r"slot_mapping must lie in \[0, 6\) \(num_blocks \* "
                      r"block_size\), got \[6, -1\]"),
    ((2, 2, 4), [0, 1], r"key must be \(2 tokens \(slot_mapping's length\), 8\) "
                        r"or \(batch, seq, 8\) for key_cache \[2, 3, 2, 4\], got "
                        r"\[2, 2, 4\]"),
    ((3, 8), [0, 1], r"key must be \(2 tokens"),
])
def test_reshape_and_cache_errors(call, key_shape, slots, message):
    cache = np.zeros((2, 3, 2, 4), np.float32)
    with pytest.raises(ValueError, match="ReshapeAndCache: " + message):
        call("ReshapeAndCache", np.ones(key_shape, np.float32), None, cache, None,
             np.array(slots, np.int32))
    with pytest.raises(ValueError, match=r"value and value_cache go together, got "
                       r"value \[2, 8\] and value_cache None"):
        call("ReshapeAndCache", np.ones((2, 8), np.float32), np.ones((2, 8), np.float32),
             cache, None, np.array([0, 1], np.int32))


def test_grouped_matmul_modes_and_errors(call, rng):
    x = rng.standard_normal((5, 3)).astype(np.float32)
    w = rng.standard_normal((2, 3, 4)).astype(np.float32)
    bias = rng.standard_normal((2, 4)).astype(np.float32)
    (y,) = call("GroupedMatmul", [x], [w], [bias], None, None, None, None,
                np.array([2, 4], np.int64), split_item=3, group_type=0)
    np.testing.assert_allclose(y[:2], x[:2] @ w[0] + bias[0], rtol=1e-5)
    np.testing.assert_allclose(y[2:4], x[2:4] @ w[1] + bias[1], rtol=1e-5)
    assert not y[4].any()                       # past the last group end
    pair = call("GroupedMatmul", [x, x[:2]], [w[0], w[1]], transpose_b=False)
    np.testing.assert_allclose(pair[1], x[:2] @ w[1], rtol=1e-5)
    (t,) = call("GroupedMatmul", [x.T], [w[0].T], transpose_a=True, transpose_b=True)
    np.testing.assert_allclose(t, x @ w[0], rtol=1e-5)
    with pytest.raises(ValueError, match=r"GroupedMatmul: group_list must be "
                       r"non-decreasing ends within x's 5 rows, got \[4, 2\]"):
        call("GroupedMatmul", [x], [w], None, None, None, None, None,
             np.array([4, 2], np.int64), split_item=3, group_type=0)
    with pytest.raises(ValueError, match=r"GroupedMatmul: x \[5, 3\] and weight \[4, 3\] "
                       r"do not multiply"):
        call("GroupedMatmul", [x], [w[0].T])
    with pytest.raises(ValueError, match=r"\(split_item, group_type\) must be \(0, -1\) "
                       r"or \(3, 0\), got \(3, -1\)"):
        call("GroupedMatmul", [x], [w], split_item=3)
    with pytest.raises(ValueError, match=r"GroupedMatmul: antiquant_scale is not "
                       r"supported by refinfer \(float matrix products"):
        call("GroupedMatmul", [x], [w[0]], None, None, None, [np.ones(4, np.float32)])


def test_apply_rotary_pos_emb_matches_rotary_position_embedding(call, rng):
    q = rng.standard_normal((3, 8)).astype(np.float32)      # 2 heads of D = 4
    k = rng.standard_normal((3, 4)).astype(np.float32)      # 1 head
    cos, sin = (rng.uniform(-1, 1, (3, 4)).astype(np.float32) for _ in range(2))
    for fmt, mode in ((2, 0), (3, 1)):
        got_q, got_k = call("ApplyRotaryPosEmb", q, k, cos, sin, np.zeros(1, np.int32),
                            fmt)
        heads = q.reshape(1, 3, 2, 4).transpose(0, 2, 1, 3)
        want = call("RotaryPositionEmbedding", heads, cos[None, None], sin[None, None],
                    mode)
        np.testing.assert_allclose(got_q, want.transpose(0, 2, 1, 3).reshape(3, 8),
                                   rtol=1e-6)
        assert got_k.shape == k.shape
    with pytest.raises(ValueError, match=r"ApplyRotaryPosEmb: cos_format 0 \(a "
                       r"per-position table indexed by position_ids\) is not supported"):
        call("ApplyRotaryPosEmb", q, k, cos, sin, np.zeros(1, np.int32), 0)
    with pytest.raises(ValueError, match=r"ApplyRotaryPosEmb: query \[3, 8\] must be "
                       r"\(T, N \* D\) or \(B, S, N \* D\) with cos and sin \(T, D\)"):
        call("ApplyRotaryPosEmb", q, k, cos[:2], sin[:2], np.zeros(1, np.int32), 2)


@pytest.mark.parametrize("dtype,tol", [("float32", 1e-6), ("float16", 2e-3)])
def test_swiglu(call, rng, dtype, tol):
    x = rng.standard_normal((2, 6)).astype(dtype)
    got = call("Swiglu", x, 0)
    a, b = x[:1].astype(np.float64), x[1:]
    assert got.dtype == dtype and got.shape == (1, 6)
    np.testing.assert_allclose(got, a / (1 + np.exp(-a)) * b, rtol=tol, atol=tol)
    with pytest.raises(ValueError, match=r"Swiglu: dim 1 must be an axis of even "
                       r"length of input, got shape \[2, 5\]"):
        call("Swiglu", x[:, :5], 1)
