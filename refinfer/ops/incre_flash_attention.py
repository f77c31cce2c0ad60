"""IncreFlashAttention (Ascend)."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.attention import (QUANTISED, attend, decode_mask_shapes, from_bnsd,
                             past_lengths, per_batch, to_bnsd)
from ._ref.common import FLOATS, none_of, optional

OP = "IncreFlashAttention"


@register(OP, family="nn", dtypes=FLOATS, no_kernel="oracle", sequences=("key", "value"),
          convert={"actual_seq_lengths": optional(args.ints), "num_heads": args.integer,
                   "input_layout": args.attention_layout, "scale_value": args.scalar,
                   "num_key_value_heads": args.integer, "block_size": args.integer,
                   "inner_precise": args.integer})
def incre_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None,
                          pse_shift=None, dequant_scale1=None, quant_scale1=None,
                          dequant_scale2=None, quant_scale2=None, quant_offset2=None,
                          antiquant_scale=None, antiquant_offset=None, block_table=None,
                          kv_padding_size=None, num_heads=1, input_layout="BSH",
                          scale_value=1.0, num_key_value_heads=0, block_size=0,
                          inner_precise=1):
    """Decoding attention over a cache (Ascend only; a CPU oracle here).

    One query row per sequence against its key/value cache::

        attention_out = softmax(Mask(Q K^T * scale_value + pse_shift)) V

    query (B, 1, H) for BSH or (B, N, 1, D) for BNSD; key and value are
    lists of tensors (one with the whole batch, or one per batch entry,
    joined along B), (B, S, kvH) / (B, kvN, S, D); num_key_value_heads
    (0: num_heads) heads serve the num_heads query heads (GQA).
    attn_mask ((B, S), (B, 1, S) or (B, 1, 1, S); nonzero = discard) and
    actual_seq_lengths[b] (keys past it are discarded) mask the cache;
    pse_shift (B or 1, N, 1, S) is added after scaling. Output: query's
    shape and dtype (float16 computed in float32). Quantisation, paged
    blocks (block_table) and kv_padding_size must be None; block_size and
    inner_precise have no effect.
    """
    none_of(OP, QUANTISED, dequant_scale1=dequant_scale1, quant_scale1=quant_scale1,
            dequant_scale2=dequant_scale2, quant_scale2=quant_scale2,
            quant_offset2=quant_offset2, antiquant_scale=antiquant_scale,
            antiquant_offset=antiquant_offset, block_table=block_table,
            kv_padding_size=kv_padding_size)
    q = to_bnsd(query, input_layout, num_heads, OP, "query")
    k, v = (to_bnsd(_joined(x, name), input_layout, num_key_value_heads or num_heads,
                    OP, name) for x, name in ((key, "key"), (value, "value")))
    discard = None if attn_mask is None else _mask(attn_mask, q.shape[0], k.shape[2])
    if actual_seq_lengths is not None:
        kv_past = past_lengths(per_batch(OP, "actual_seq_lengths", actual_seq_lengths,
                                         q.shape[0]), k.shape[2])
        discard = kv_past if discard is None else discard | kv_past
    out, _, _ = attend(q, k, v, scale_value, discard, pse_shift, op=OP)
    return from_bnsd(out, input_layout).astype(query.dtype)


def _mask(attn_mask, batch: int, keys: int) -> np.ndarray:
    """attn_mask as the discard mask (B, 1, 1, S); its shape must be one
    the docstring names."""
    shape, allowed = tuple(np.shape(attn_mask)), decode_mask_shapes(batch, keys)
    if shape not in allowed:
        raise ValueError(f"{OP}: attn_mask must be "
                         f"{' or '.join(str(list(a)) for a in allowed)} (batch "
                         f"{batch}, {keys} cached keys), got {list(shape)}")
    return np.asarray(attn_mask).astype(bool).reshape(batch, 1, 1, keys)


def _joined(tensors, name):
    """The key or value list as one tensor (the batch's entries joined)."""
    items = list(tensors) if isinstance(tensors, (list, tuple)) else [tensors]
    if not items or any(not isinstance(t, np.ndarray) for t in items):
        raise TypeError(f"{OP}: {name} must be a non-empty list of tensors")
    return items[0] if len(items) == 1 else np.concatenate(items, axis=0)
