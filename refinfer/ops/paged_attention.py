"""PagedAttention (Ascend)."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.attention import attend
from ._ref.common import FLOATS, none_of

OP = "PagedAttention"


@register(OP, family="nn", dtypes=FLOATS, no_kernel="oracle",
          convert={"head_num": args.integer, "scale_value": args.scalar,
                   "kv_head_num": args.integer, "kv_cache_quant_mode": args.integer,
                   "mask_mode": args.integer, "mla_v_dim": args.integer})
def paged_attention(query, key_cache, value_cache=None, block_tables=None,
                    context_lens=None, antiquant_scale=None, antiquant_offset=None,
                    attn_mask=None, q_seq_lens=None, alibi_mask=None, head_num=1,
                    scale_value=1.0, kv_head_num=0, kv_cache_quant_mode=0,
                    mask_mode=0, mla_v_dim=0):
    """Attention over a block-paged cache (Ascend only; a CPU oracle here).

    MindSpore itself has no kernel for it. Token t attends to its context,
    the first context_lens[t] rows of its blocks::

        K_t = key_cache[block_tables[t]] (block after block)[:context_lens[t]]
        out[t] = softmax(Q_t K_t^T * scale_value) V_t

    query (T, head_num * D) or (T, head_num, D); key_cache, value_cache
    (num_blocks, block_size, kv_head_num, D) (or kv_head_num * D last);
    block_tables (T, max_blocks) int; context_lens (T,) int. kv_head_num
    heads serve the head_num query heads (GQA; 0: head_num). With
    value_cache None and mla_v_dim > 0 the values are the keys' first
    mla_v_dim features (multi-latent attention). Output: (T, head_num * Dv)
    or (T, head_num, Dv) as query, its dtype (float16 computed in float32).
    head_num, scale_value and kv_head_num have no defaults in MindSpore.
    Only the default modes (kv_cache_quant_mode DEFAULT, mask_mode
    MASK_DEFAULT = 0) without the quantisation, mask and lookahead inputs.
    """
    none_of(OP, "float decoding, one query per sequence, without masks",
            antiquant_scale=antiquant_scale, antiquant_offset=antiquant_offset,
            attn_mask=attn_mask, q_seq_lens=q_seq_lens, alibi_mask=alibi_mask)
    if kv_cache_quant_mode or mask_mode:
        raise ValueError(f"{OP}: only kv_cache_quant_mode DEFAULT and mask_mode "
                         f"MASK_DEFAULT (0) are supported, got {kv_cache_quant_mode} "
                         f"and {mask_mode}")
    if block_tables is None or context_lens is None:
        raise ValueError(f"{OP}: block_tables and context_lens are required")
    if query.ndim not in (2, 3) or block_tables.ndim != 2 \
            or block_tables.shape[0] != query.shape[0] \
            or context_lens.shape != query.shape[:1]:
        raise ValueError(f"{OP}: query {list(query.shape)}, block_tables "
                         f"{list(block_tables.shape)} and context_lens "
                         f"{list(context_lens.shape)} must be (T, ...), (T, blocks), "
                         f"(T,)")
    tokens = query.shape[0]
    q = query.reshape(tokens, head_num, 1, -1)
    keys = _rows(key_cache, kv_head_num or head_num, "key_cache")
    if value_cache is None and mla_v_dim <= 0:
        raise ValueError(f"{OP}: value_cache is None and mla_v_dim is {mla_v_dim}")
    values = keys[..., :mla_v_dim] if value_cache is None \
        else _rows(value_cache, kv_head_num or head_num, "value_cache")
    out = [attend(q[t][None], *_context(keys, values, block_tables[t], context_lens[t]),
                  scale_value, op=OP)[0][0] for t in range(tokens)]
    out = np.stack(out)[:, :, 0] if out else np.zeros((0, head_num, values.shape[-1]))
    return out.reshape(tokens, *query.shape[1:-1], -1).astype(query.dtype)


def _rows(cache, heads, name):
    """A cache as (num_blocks, block_size, heads, D)."""
    fits = cache.ndim == 4 and cache.shape[2] == heads \
        or cache.ndim == 3 and cache.shape[2] % heads == 0
    if not fits:
        raise ValueError(f"{OP}: {name} must be (num_blocks, block_size, {heads}, D) "
                         f"or (..., {heads} * D), got shape {list(cache.shape)}")
    return cache.reshape(*cache.shape[:2], heads, -1)


def _context(keys, values, blocks, length):
    """One token's keys and values, (1, kvN, length, D)."""
    length, block_size = int(length), keys.shape[1]
    used = blocks[:-(-length // block_size)]
    if not 0 < length <= len(blocks) * block_size \
            or np.any((used < 0) | (used >= len(keys))):
        raise ValueError(f"{OP}: context length {length} must be in [1, "
                         f"{len(blocks) * block_size}] and its block ids in "
                         f"[0, {len(keys)}), got blocks {used[:8].tolist()}")
    return tuple(c[used].reshape(-1, *c.shape[2:])[:length].transpose(1, 0, 2)[None]
                 for c in (keys, values))
