"""FlashAttentionScore (Ascend)."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.attention import (QUANTISED, UNBOUNDED, attend, from_bnsd, kv_heads,
                             sparse_discard, to_bnsd)
from ._ref.common import FLOATS, none_of, optional

OP = "FlashAttentionScore"
STAT_COPIES = 8     # Ascend writes each softmax statistic 8 times per row


@register(OP, family="nn", dtypes=FLOATS, no_kernel="oracle",
          convert={"prefix": optional(args.ints), "actual_seq_qlen": optional(args.ints),
                   "actual_seq_kvlen": optional(args.ints), "head_num": args.integer,
                   "keep_prob": args.scalar, "scale_value": args.scalar,
                   "pre_tokens": args.integer, "next_tokens": args.integer,
                   "inner_precise": args.integer, "input_layout": args.attention_layout,
                   "sparse_mode": args.integer})
def flash_attention_score(query, key, value, real_shift=None, drop_mask=None,
                          padding_mask=None, attn_mask=None, prefix=None,
                          actual_seq_qlen=None, actual_seq_kvlen=None, head_num=1,
                          keep_prob=1.0, scale_value=1.0, pre_tokens=UNBOUNDED,
                          next_tokens=UNBOUNDED, inner_precise=0, input_layout="BSH",
                          sparse_mode=0):
    """Fused attention (Ascend only in MindSpore; a CPU oracle here).

    Per head, N1 = head_num query heads reading N2 key/value heads (N1 a
    multiple of N2; see ``_ref/attention.attend``)::

        attention_out = softmax(Mask((Q K^T + real_shift) * scale_value)) V

    Returns (softmax_max,
    softmax_sum, softmax_out, attention_out): each query row's largest
    score and sum of exp(score - max), float32, shape (B, N1, S1, 8) (8
    equal copies, as Ascend writes them; (T1, N1, 8) for TND); softmax_out,
    unused by MindSpore, as zeros of shape (1,); attention_out in query's
    layout and dtype (float16 computed in float32).

    Layouts (input_layout): BSH and SBH (H = N * D), BNSD, BSND, and TND
    ((T, N, D), the batch's sequences packed end to end, actual_seq_qlen and
    actual_seq_kvlen their cumulative ends). Masks (sparse_mode, see
    ``_ref/attention.sparse_discard``): 0 attn_mask (nonzero = discard) and
    the band pre_tokens / next_tokens, 1 attn_mask alone, 2 causal from the
    top left, 3 causal from the bottom right, 4 the band from the bottom
    right; modes 2-4 need no attn_mask here. real_shift (B or 1, N1, S1,
    S2) is added before scaling, as MindSpore documents. Inference only:
    keep_prob must be 1 and drop_mask, padding_mask and prefix None;
    inner_precise has no effect. head_num has no default in MindSpore.
    """
    none_of(OP, QUANTISED, drop_mask=drop_mask, padding_mask=padding_mask, prefix=prefix)
    if keep_prob != 1:
        raise ValueError(f"{OP}: keep_prob must be 1 for inference (dropout draws "
                         f"random numbers), got {keep_prob}")
    if input_layout == "TND":
        return _packed(query, key, value, real_shift, attn_mask, actual_seq_qlen,
                       actual_seq_kvlen, scale_value, pre_tokens, next_tokens,
                       sparse_mode)
    q = to_bnsd(query, input_layout, head_num, OP, "query")
    k, v = (to_bnsd(x, input_layout, kv_heads(x, input_layout, q.shape[-1]), OP, name)
            for x, name in ((key, "key"), (value, "value")))
    discard = sparse_discard(OP, sparse_mode, attn_mask, q.shape[2], k.shape[2],
                             pre_tokens, next_tokens)
    out, row_max, row_sum = attend(q, k, v, scale_value, discard, real_shift,
                                   bias_first=True, op=OP)
    return (*_statistics(row_max, row_sum), np.zeros(1, query.dtype),
            from_bnsd(out, input_layout).astype(query.dtype))


def _statistics(row_max, row_sum):
    """softmax_max and softmax_sum: each row's value, 8 times, in float32."""
    return tuple(np.repeat(s[..., None], STAT_COPIES, axis=-1).astype(np.float32)
                 for s in (row_max, row_sum))


def _packed(query, key, value, real_shift, attn_mask, q_ends, kv_ends, scale,
            pre_tokens, next_tokens, sparse_mode):
    """TND: each batch's sequences attend on their own, (T, N, D) <-> BNSD;
    the mask comes from sparse_mode alone (MindSpore takes only the
    compressed causal mask there)."""
    if q_ends is None or kv_ends is None or len(q_ends) != len(kv_ends):
        raise ValueError(f"{OP}: TND needs actual_seq_qlen and actual_seq_kvlen of "
                         f"one length, got {q_ends} and {kv_ends}")
    for x, name, ends, lengths in ((query, "query", q_ends, "actual_seq_qlen"),
                                   (key, "key", kv_ends, "actual_seq_kvlen"),
                                   (value, "value", kv_ends, "actual_seq_kvlen")):
        if x.ndim != 3 or x.shape[0] != ends[-1]:
            raise ValueError(f"{OP}: TND {name} {list(x.shape)} must be (T, N, D) "
                             f"with T the last {lengths} {ends[-1]}")
    none_of(OP, "TND takes no real_shift here", real_shift=real_shift)
    if attn_mask is not None and sparse_mode < 2:
        raise ValueError(f"{OP}: TND masks are causal (sparse_mode 2 or 3, "
                         f"MindSpore's rule), got sparse_mode {sparse_mode} with "
                         f"attn_mask")
    pieces = []
    for (q0, q1), (k0, k1) in zip(_spans(q_ends), _spans(kv_ends)):
        q, k, v = (x[a:b].transpose(1, 0, 2)[None]
                   for x, (a, b) in ((query, (q0, q1)), (key, (k0, k1)),
                                     (value, (k0, k1))))
        discard = sparse_discard(OP, sparse_mode, None, q1 - q0, k1 - k0,
                                 pre_tokens, next_tokens)
        pieces.append(attend(q, k, v, scale, discard, op=OP))
    out, row_max, row_sum = (np.concatenate([p[i][0].swapaxes(0, 1) for p in pieces])
                             for i in range(3))
    return (*_statistics(row_max, row_sum), np.zeros(1, query.dtype),
            out.astype(query.dtype))


def _spans(ends):
    """(start, end) of each packed sequence from the cumulative ends."""
    starts = (0, *ends[:-1])
    return list(zip(starts, ends))
