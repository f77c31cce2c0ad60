"""The cuda kernels of the attention ops (refinfer/cuda/attention.py:
FlashAttentionScore, PromptFlashAttention, IncreFlashAttention,
PagedAttention) equal their NumPy reference (ops/_ref/attention.py) on
tiny shapes: every layout, the sparse modes' masks and bands, real_shift
and pse_shift, grouped-query heads, actual lengths, a paged cache; float32
(rtol 1e-5: the softmax's sum runs in another order), float64 and
float16 (computed in float32). What they decline (TND, quantisation, a
block id out of range) runs the reference, error included."""
import numpy as np
import pytest

from refinfer import registry
from refinfer.cuda import attention

from cuda_check import FLOATS, check, run, values

ids = lambda d: np.dtype(d).name     # noqa: E731


def _qkv(layout, dtype, batch=2, heads=2, kv_heads=1, s1=3, s2=4, depth=4):
    """query, key, value in ``layout``."""
    shapes = {"BSH": lambda n, s: (batch, s, n * depth),
              "SBH": lambda n, s: (s, batch, n * depth),
              "BNSD": lambda n, s: (batch, n, s, depth),
              "BSND": lambda n, s: (batch, s, n, depth)}[layout]
    return (values(shapes(heads, s1), dtype), values(shapes(kv_heads, s2), dtype),
            values(shapes(kv_heads, s2), dtype))


def test_every_kernel_is_tested():
    assert set(attention.KERNELS) == {"FlashAttentionScore", "PromptFlashAttention",
                                      "IncreFlashAttention", "PagedAttention"}


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
@pytest.mark.parametrize("layout", ["BSH", "SBH", "BNSD", "BSND"])
def test_flash_attention_score_layouts(dtype, layout):
    q, k, v = _qkv(layout, dtype)
    shift = values((1, 2, 3, 4), dtype)
    check("FlashAttentionScore", q, k, v, shift, head_num=2, scale_value=0.5,
          input_layout=layout, sparse_mode=2)


@pytest.mark.parametrize("mode, mask_shape", [(0, (3, 4)), (0, (2, 3, 4)),
                                              (1, (2, 1, 3, 4)), (3, None), (4, None)])
def test_flash_attention_score_masks(mode, mask_shape):
    q, k, v = _qkv("BNSD", np.float32)
    mask = None if mask_shape is None else (values(mask_shape, np.float32) > 0.5
                                            ).astype(np.uint8)
    check("FlashAttentionScore", q, k, v, attn_mask=mask, head_num=2, scale_value=0.7,
          pre_tokens=1, next_tokens=0, input_layout="BNSD", sparse_mode=mode)


def test_a_row_with_every_key_discarded_is_zeros():
    q, k, v = _qkv("BNSD", np.float32)
    mask = np.zeros((3, 4), np.bool_)
    mask[1] = True
    check("FlashAttentionScore", q, k, v, attn_mask=mask, head_num=2,
          input_layout="BNSD", sparse_mode=1)
    softmax_max, softmax_sum, _, out = run("FlashAttentionScore", q, k, v,
                                           attn_mask=mask, head_num=2,
                                           input_layout="BNSD", sparse_mode=1)
    assert np.all(out[:, :, 1] == 0) and np.all(softmax_max[:, :, 1] == -np.inf)
    assert np.all(softmax_sum[:, :, 1] == 0) and softmax_max.shape == (2, 2, 3, 8)


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
def test_prompt_flash_attention(dtype):
    q, k, v = _qkv("BSH", dtype, kv_heads=2)
    mask = values((2, 1, 3, 4), dtype) > 0
    check("PromptFlashAttention", q, k, v, mask, [2, 3], [4, 2],
          values((2, 2, 3, 4), dtype), num_heads=2, scale_value=0.5, pre_tokens=2,
          next_tokens=1, sparse_mode=0)
    check("PromptFlashAttention", q, k, v, None, [3, 1], [2, 4], num_heads=2,
          sparse_mode=4, pre_tokens=1, next_tokens=0)


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
def test_incre_flash_attention(dtype):
    q, k, v = _qkv("BNSD", dtype, heads=4, kv_heads=2, s1=1, s2=5)
    mask = (values((2, 5), dtype) > 1).astype(np.int8)
    check("IncreFlashAttention", q, [k], [v], mask, [5, 3], num_heads=4,
          input_layout="BNSD", scale_value=0.3, num_key_value_heads=2)
    check("IncreFlashAttention", q, [k[:1], k[1:]], [v[:1], v[1:]],
          pse_shift=values((1, 4, 1, 5), dtype), num_heads=4, input_layout="BNSD",
          num_key_value_heads=2)


def _paged(dtype, query_shape, kv_heads=1, blocks=4, block_size=2, depth=4):
    query = values(query_shape, dtype)
    cache = [values((blocks, block_size, kv_heads * depth), dtype) for _ in range(2)]
    block_tables = np.array([[3, 0, 1], [2, 1, 0]], np.int32)
    return query, *cache, block_tables, np.array([5, 2], np.int32)


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
def test_paged_attention(dtype):
    query, keys, values_, tables, lengths = _paged(dtype, (2, 2 * 4))
    check("PagedAttention", query, keys, values_, tables, lengths, head_num=2,
          scale_value=0.5, kv_head_num=1)
    query, keys, _, tables, lengths = _paged(dtype, (2, 2, 4), kv_heads=2)
    check("PagedAttention", query, keys.reshape(4, 2, 2, 4), None, tables, lengths,
          head_num=2, kv_head_num=2, mla_v_dim=3)


@pytest.mark.parametrize("op, args, kwargs", [
    ("FlashAttentionScore", _qkv("BSH", np.float32), dict(head_num=2, keep_prob=0.5)),
    ("FlashAttentionScore", _qkv("BSH", np.float32), dict(head_num=2, sparse_mode=9)),
    ("FlashAttentionScore", _qkv("BSH", np.float32), dict(head_num=3)),
    ("PromptFlashAttention", _qkv("BSH", np.float32, kv_heads=2),
     dict(num_heads=2, actual_seq_lengths=[1, 2, 3])),
    ("PagedAttention", _paged(np.float32, (2, 2 * 4))[:3]
     + (np.array([[3, 0, 9], [2, 1, 0]], np.int32), np.array([5, 2], np.int32)),
     dict(head_num=2, kv_head_num=1)),         # block id 9 of 4 blocks
    ("PagedAttention", _paged(np.float32, (2, 2 * 4))[:4]
     + (np.array([7, 2], np.int32),), dict(head_num=2, kv_head_num=1)),
])
def test_what_the_reference_refuses_declines(op, args, kwargs):
    """Dropout, an unknown sparse mode, heads that do not divide H,
    lengths that do not fit the batch, a block id or a context length out
    of range: the kernel declines, and the reference raises its error."""
    assert run(op, *args, **kwargs) is None
    with pytest.raises(ValueError, match=op):
        registry.get_op(op).reference(*args, **kwargs)


def test_float16_computes_in_float32():
    """float16 in, float32 math, one rounding to float16 (the op tolerance
    of float16)."""
    q, k, v = _qkv("BSH", np.float16, kv_heads=2)
    check("FlashAttentionScore", q, k, v, head_num=2, sparse_mode=2)
    check("PromptFlashAttention", q, k, v, num_heads=2, pse_shift=values(
        (1, 2, 3, 4), np.float16))
    query, keys, values_, tables, lengths = _paged(np.float16, (2, 2 * 4))
    check("PagedAttention", query, keys, values_, tables, lengths, head_num=2,
          kv_head_num=1)


def test_special_scores_follow_the_reference():
    """A -inf bias on a whole row (zeros), an inf and a NaN score: the
    reference's rule (exp(s) undivided where the max is not finite)."""
    q, k, v = _qkv("BNSD", np.float32)
    shift = np.zeros((1, 2, 3, 4), np.float32)
    shift[0, 0, 0] = -np.inf
    shift[0, 1, 1, 2] = np.inf
    shift[0, 1, 2, 3] = np.nan
    check("FlashAttentionScore", q, k, v, shift, head_num=2, input_layout="BNSD")


@pytest.mark.parametrize("dtype", FLOATS, ids=ids)
@pytest.mark.parametrize("mode", [2, 3, 4])
def test_flash_attention_score_packed_sequences(dtype, mode):
    """TND: sequences of 2, 0 and 3 query rows against 3, 1 and 4 keys,
    each on its own; statistics (T, N, 8)."""
    query, key, value = (values((t, n, 4), dtype) for t, n in ((5, 2), (8, 1), (8, 1)))
    check("FlashAttentionScore", query, key, value, actual_seq_qlen=[2, 2, 5],
          actual_seq_kvlen=[3, 4, 8], head_num=2, scale_value=0.5, pre_tokens=1,
          next_tokens=0, input_layout="TND", sparse_mode=mode)


def test_packed_sequences_the_reference_refuses_decline():
    query, key = values((5, 2, 4), np.float32), values((8, 1, 4), np.float32)
    assert run("FlashAttentionScore", query, key, key, actual_seq_qlen=[2, 4],
               actual_seq_kvlen=[3, 8], head_num=2, input_layout="TND",
               sparse_mode=2) is None                  # ends at 4 of 5 rows
    with pytest.raises(ValueError, match="FlashAttentionScore: TND query"):
        registry.get_op("FlashAttentionScore").reference(
            query, key, key, actual_seq_qlen=[2, 4], actual_seq_kvlen=[3, 8],
            head_num=2, input_layout="TND", sparse_mode=2)
