"""PromptFlashAttention (Ascend)."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.attention import (QUANTISED, UNBOUNDED, attend, from_bnsd,
                             past_lengths, per_batch, sparse_discard, to_bnsd)
from ._ref.common import FLOATS, none_of, optional

OP = "PromptFlashAttention"


@register(OP, family="nn", dtypes=FLOATS, no_kernel="oracle",
          convert={"actual_seq_lengths": optional(args.ints),
                   "actual_seq_lengths_kv": optional(args.ints),
                   "num_heads": args.integer, "scale_value": args.scalar,
                   "pre_tokens": args.integer, "next_tokens": args.integer,
                   "input_layout": args.attention_layout,
                   "num_key_value_heads": args.integer, "sparse_mode": args.integer,
                   "inner_precise": args.integer})
def prompt_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None,
                           actual_seq_lengths_kv=None, pse_shift=None, deq_scale1=None,
                           quant_scale1=None, deq_scale2=None, quant_scale2=None,
                           quant_offset2=None, num_heads=1, scale_value=1.0,
                           pre_tokens=UNBOUNDED, next_tokens=0, input_layout="BSH",
                           num_key_value_heads=0, sparse_mode=0, inner_precise=1):
    """Prefill attention (Ascend only in MindSpore; a CPU oracle here).

    Per head, num_heads query heads reading num_key_value_heads key/value
    heads (0: num_heads; GQA, see ``_ref/attention.attend``)::

        attention_out = softmax(Mask(Q K^T * scale_value + pse_shift)) V

    Layouts (input_layout): BSH (H = N * D) and BNSD, as MindSpore
    documents (SBH and BSND are read too). Masks (sparse_mode, ``sparse_discard``): 0
    attn_mask (nonzero = discard; (S1, S2), (B, S1, S2) or (B, 1, S1, S2))
    and the band pre_tokens / next_tokens (next_tokens=0: causal), none
    without attn_mask; 1 attn_mask alone; 2, 3 causal from the top left /
    bottom right; 4 the band from the bottom right; modes 2-4 need no
    attn_mask here. actual_seq_lengths_kv[b]: keys past it are discarded;
    actual_seq_lengths[b]: query rows past it are padding, written as zeros
    here; the bottom-right alignment of modes 3 and 4 uses both lengths.
    pse_shift (B or 1, N, S1, S2) is added after scaling. Output: query's
    shape and dtype (float16 computed in float32). The quantisation inputs
    must be None; inner_precise has no effect.
    """
    none_of(OP, QUANTISED, deq_scale1=deq_scale1, quant_scale1=quant_scale1,
            deq_scale2=deq_scale2, quant_scale2=quant_scale2,
            quant_offset2=quant_offset2)
    q = to_bnsd(query, input_layout, num_heads, OP, "query")
    k, v = (to_bnsd(x, input_layout, num_key_value_heads or num_heads, OP, name)
            for x, name in ((key, "key"), (value, "value")))
    batch, s1, s2 = q.shape[0], q.shape[2], k.shape[2]
    q_len = per_batch(OP, "actual_seq_lengths", actual_seq_lengths or s1, batch)
    kv_len = per_batch(OP, "actual_seq_lengths_kv", actual_seq_lengths_kv or s2, batch)
    discard = sparse_discard(OP, sparse_mode, attn_mask, s1, s2, pre_tokens,
                             next_tokens, offset=kv_len - q_len)
    if actual_seq_lengths_kv is not None:
        kv_past = past_lengths(kv_len, s2)
        discard = kv_past if discard is None else discard | kv_past
    out, _, _ = attend(q, k, v, scale_value, discard, pse_shift, op=OP)
    out = np.where(past_lengths(q_len, s1).swapaxes(-1, -2), 0, out)
    return from_bnsd(out, input_layout).astype(query.dtype)
