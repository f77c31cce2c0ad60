"""Ascend inference ops (issue 14, part 4): MindSpore 2.7.1 exports them on CPU but has
no CPU kernel, so every output here is an independent float64 NumPy computation of the
documented semantics (written without refinfer), rounded to the output dtype; each
case's description says so.
"""
import dataclasses

import make_golden
import mindspore as ms
import numpy as np
from mindspore import nn, ops

from op_cases import OpCase, fixed, t

FLOAT64_NOTE = " (outputs: independent float64 NumPy reference; Ascend-only op)"


def ref_rms_norm(x, gamma, epsilon):
    """(y, rstd): rstd = 1 / sqrt(mean(x^2) + eps) over gamma's trailing axes."""
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    x64 = x.astype(np.float64)
    rstd = 1.0 / np.sqrt(np.mean(x64 * x64, axis=axes, keepdims=True) + epsilon)
    return [(x64 * rstd * gamma).astype(x.dtype), rstd.astype(np.float32)]


def ref_add_rms_norm(x1, x2, gamma, epsilon):
    """(y, rstd, x1 + x2)."""
    x = (x1.astype(np.float64) + x2).astype(x1.dtype)
    return ref_rms_norm(x, gamma, epsilon) + [x]


CASES = [
    OpCase("rms_norm", "RmsNorm", "P.RmsNorm(1e-5)(x, y)", [t((2, 3, 8)), t((8,))],
           "ops.RmsNorm over the last axis" + FLOAT64_NOTE,
           reference=lambda x, g: ref_rms_norm(x, g, 1e-5)),
    OpCase("rms_norm_2d_gamma", "RmsNorm", "P.RmsNorm()(x, y)", [t((2, 4, 6)), t((4, 6))],
           "ops.RmsNorm over the last two axes, default epsilon" + FLOAT64_NOTE,
           reference=lambda x, g: ref_rms_norm(x, g, 1e-6)),
    OpCase("rms_norm_float16", "RmsNorm", "P.RmsNorm()(x, y)",
           [t((3, 16), "float16"), t((16,), "float16")],
           "ops.RmsNorm in float16 (computed in float32)" + FLOAT64_NOTE,
           reference=lambda x, g: ref_rms_norm(x, g, 1e-6)),
    OpCase("add_rms_norm", "AddRmsNorm", "ops.auto_generate.AddRmsNorm()(x, y, z, 1e-5)",
           [t((2, 3, 8)), t((2, 3, 8)), t((8,))],
           "ops.AddRmsNorm: residual add then RmsNorm; returns (y, rstd, x1 + x2)"
           + FLOAT64_NOTE, reference=lambda a, b, g: ref_add_rms_norm(a, b, g, 1e-5)),
]


def ref_rotary(x, cos, sin, mode):
    """x * cos + rotate(x) * sin, rotate_half (mode 0) or interleaved (mode 1)."""
    x64 = x.astype(np.float64)
    half = x.shape[-1] // 2
    if mode == 0:
        rotated = np.concatenate((-x64[..., half:], x64[..., :half]), axis=-1)
    else:
        rotated = np.empty_like(x64)
        rotated[..., 0::2] = -x64[..., 1::2]
        rotated[..., 1::2] = x64[..., 0::2]
    return [(x64 * cos + rotated * sin).astype(x.dtype)]


def rotary_case(name, mode, x_shape, table_shape, dtype="float32", layout=""):
    return OpCase(name, "RotaryPositionEmbedding",
                  f"ops.rotary_position_embedding(x, y, z, {mode})",
                  [t(x_shape, dtype, -2, 2), t(table_shape, dtype, -1, 1),
                   t(table_shape, dtype, -1, 1)],
                  f"ops.rotary_position_embedding mode {mode} "
                  f"({'rotate_half' if mode == 0 else 'interleaved'}), {layout}"
                  + FLOAT64_NOTE,
                  reference=lambda x, c, s: ref_rotary(x, c, s, mode))


CASES += [
    rotary_case("rope_half_bnsd", 0, (2, 3, 4, 8), (1, 1, 4, 8), layout="x BNSD, cos 11SD"),
    rotary_case("rope_half_bsnd", 0, (2, 4, 3, 8), (2, 4, 1, 8), layout="x BSND, cos BS1D"),
    rotary_case("rope_interleaved", 1, (1, 2, 4, 6), (1, 1, 4, 6), layout="x BNSD, cos 11SD"),
    rotary_case("rope_half_float16", 0, (1, 2, 4, 8), (1, 1, 4, 8), "float16",
                layout="float16 (computed in float32)"),
]


def ref_moe_gating(x, finished, k):
    """Top-k of softmax(x) per row (largest first, ties by lower expert), experts
    (E where finished), and row_idx[r, j] = j * rows + r."""
    x64 = x.astype(np.float64)
    probs = np.exp(x64 - x64.max(-1, keepdims=True))
    probs /= probs.sum(-1, keepdims=True)
    flat = probs.reshape(-1, x.shape[-1])
    y, idx, rows = [], [], len(flat)
    for r, row in enumerate(flat):
        top = sorted(range(len(row)), key=lambda e: (-row[e], e))[:k]
        y.append(row[top])
        idx.append([x.shape[-1] if finished is not None and finished.reshape(-1)[r] else e
                    for e in top])
    shape = x.shape[:-1] + (k,)
    row_idx = [[j * rows + r for j in range(k)] for r in range(rows)]
    return [np.array(y).reshape(shape).astype(x.dtype),
            np.array(idx, np.int32).reshape(shape),
            np.array(row_idx, np.int32).reshape(shape)]


CASES += [
    OpCase("moe_gating_topk_softmax", "MoeGatingTopKSoftmax",
           "ops.auto_generate.MoeGatingTopKSoftmax()(x, y, 2)",
           [t((5, 6)), lambda rng: rng.random(5) < 0.4],
           "MoeGatingTopKSoftmax, k = 2, some rows finished" + FLOAT64_NOTE,
           reference=lambda x, f: ref_moe_gating(x, f, 2)),
    OpCase("moe_gating_topk_softmax_3d", "MoeGatingTopKSoftmax",
           "ops.auto_generate.MoeGatingTopKSoftmax()(x, None, 3)", [t((2, 3, 8))],
           "MoeGatingTopKSoftmax on 3-D x, k = 3, no finished rows" + FLOAT64_NOTE,
           reference=lambda x: ref_moe_gating(x, None, 3)),
]


# --------------------------------------------------------------------------
# Attention: one loop per (batch, head, query row) over the keys it may see,
# written apart from refinfer's vectorised reference (_ref/attention.py).
# --------------------------------------------------------------------------
def split_heads(x, layout, heads):
    """x[b][n][s] -> its D features, by index arithmetic on the layout."""
    if layout == "BNSD":
        return lambda b, n, s: x[b, n, s]
    if layout == "BSND":
        return lambda b, n, s: x[b, s, n]
    dim = x.shape[-1] // heads
    if layout == "BSH":
        return lambda b, n, s: x[b, s, n * dim:(n + 1) * dim]
    return lambda b, n, s: x[s, b, n * dim:(n + 1) * dim]          # SBH


def loop_attention(q, k, v, dims, scale, keep, bias=None, bias_first=False):
    """out[b][n][i], row max and row sum: q, k, v are split_heads functions;
    dims (B, N1, N2, S1, S2); keep(b, n, i, j) says whether key j counts."""
    batch, heads, kv_heads, s1, s2 = dims
    out, stats = {}, {}
    for b in range(batch):
        for n in range(heads):
            g = n // (heads // kv_heads)
            for i in range(s1):
                kept = [j for j in range(s2) if keep(b, n, i, j)]
                scores = []
                for j in kept:
                    dot = float(np.dot(q(b, n, i).astype(np.float64),
                                       k(b, g, j).astype(np.float64)))
                    extra = 0.0 if bias is None else float(bias(b, n, i, j))
                    scores.append((dot + extra) * scale if bias_first
                                  else dot * scale + extra)
                top = max(scores)
                weights = [np.exp(s - top) for s in scores]
                total = sum(weights)
                out[b, n, i] = sum(w / total * v(b, g, j).astype(np.float64)
                                   for w, j in zip(weights, kept))
                stats[b, n, i] = (top, total)
    return out, stats


def merge_heads(out, layout, dims, dtype):
    """The loop's {(b, n, i): row} in ``layout``."""
    batch, heads, _, s1, _ = dims
    d = len(next(iter(out.values())))
    shape = {"BNSD": (batch, heads, s1, d), "BSND": (batch, s1, heads, d),
             "BSH": (batch, s1, heads * d), "SBH": (s1, batch, heads * d)}[layout]
    y = np.zeros(shape)
    for (b, n, i), row in out.items():
        if layout == "BNSD":
            y[b, n, i] = row
        elif layout == "BSND":
            y[b, i, n] = row
        elif layout == "BSH":
            y[b, i, n * d:(n + 1) * d] = row
        else:
            y[i, b, n * d:(n + 1) * d] = row
    return y.astype(dtype)


def fas_reference(layout, heads, kv_heads, scale, keep_rule, with_mask=False,
                  with_shift=False):
    """FlashAttentionScore's (softmax_max, softmax_sum, softmax_out, out)."""
    def reference(q, k, v, *extra):
        s_axis = 0 if layout == "SBH" else (2 if layout == "BNSD" else 1)
        dims = (q.shape[1 if layout == "SBH" else 0], heads, kv_heads,
                q.shape[s_axis], k.shape[s_axis])
        mask = extra[0] if with_mask else None
        shift = extra[-1] if with_shift else None
        out, stats = loop_attention(
            split_heads(q, layout, heads), split_heads(k, layout, kv_heads),
            split_heads(v, layout, kv_heads), dims, scale,
            lambda b, n, i, j: keep_rule(i, j, dims) and (mask is None or not mask[i, j]),
            None if shift is None else (lambda b, n, i, j: shift[b, n, i, j]), True)
        table = np.zeros(dims[:2] + dims[3:4] + (2,))
        for key, pair in stats.items():
            table[key] = pair
        return [np.repeat(table[..., :1], 8, -1).astype(np.float32),
                np.repeat(table[..., 1:], 8, -1).astype(np.float32),
                np.zeros(1, q.dtype), merge_heads(out, layout, dims, q.dtype)]
    return reference


def fas_case(name, layout, q, kv, heads, kv_heads, attrs, keep_rule, what, mask=None,
             shift=None, dtype="float32"):
    inputs = [t(q, dtype, -1, 1), t(kv, dtype, -1, 1), t(kv, dtype, -1, 1)]
    mask_arg = "None"
    if mask is not None:
        inputs.append(fixed(mask, "uint8"))
        mask_arg = "w"
    elif "sparse_mode=0" not in attrs:
        # MindSpore's shape inference wants the compressed (2048, 2048) mask of
        # modes 2-4, which neither kernel reads: a broadcast keeps the file small
        inputs.append(fixed([[0]], "uint8"))
        mask_arg = "ops.broadcast_to(w, (2048, 2048))"
    shift_arg = "None"
    if shift is not None:
        inputs.append(t(shift, dtype, -1, 1))
        shift_arg = "ARG"
    args = "xyzwv"[:len(inputs)]
    shift_arg = shift_arg.replace("ARG", args[-1])
    expr = (f"ops.auto_generate.FlashAttentionScore({heads}, scale_value=0.5, "
            f"input_layout='{layout}', {attrs})(x, y, z, {shift_arg}, None, None, "
            f"{mask_arg})")
    return OpCase(name, "FlashAttentionScore", expr, inputs,
                  f"FlashAttentionScore {layout}, {heads} query / {kv_heads} key-value "
                  f"heads, {what}" + FLOAT64_NOTE,
                  reference=fas_reference(layout, heads, kv_heads, 0.5, keep_rule,
                                          mask is not None, shift is not None))


def causal_bottom_right(i, j, dims):
    return j <= i + dims[4] - dims[3]


BAND_MASK = (np.arange(5)[None, :] > np.arange(4)[:, None] + 2).astype(np.uint8)

CASES += [
    fas_case("fas_bsh_causal", "BSH", (2, 3, 16), (2, 5, 8), 2, 1, "sparse_mode=3",
             causal_bottom_right, "sparse_mode 3 (causal from the bottom right)"),
    fas_case("fas_bnsd_mask_shift", "BNSD", (1, 2, 4, 8), (1, 2, 5, 8), 2, 2,
             "pre_tokens=2, next_tokens=1, sparse_mode=0",
             lambda i, j, dims: -2 <= j - i <= 1,
             "sparse_mode 0: attn_mask (S1, S2) and the band pre_tokens 2 / next_tokens "
             "1, real_shift added before scaling", mask=BAND_MASK, shift=(1, 2, 4, 5)),
    fas_case("fas_sbh_band", "SBH", (4, 1, 8), (6, 1, 8), 2, 2,
             "pre_tokens=1, next_tokens=0, sparse_mode=4",
             lambda i, j, dims: 0 <= i + 2 - j <= 1,
             "sparse_mode 4 (band pre_tokens 1 / next_tokens 0 from the bottom right)"),
    fas_case("fas_bsnd_causal", "BSND", (1, 4, 2, 8), (1, 4, 1, 8), 2, 1,
             "sparse_mode=2", lambda i, j, dims: j <= i,
             "sparse_mode 2 (causal from the top left)"),
]


def fas_tnd_reference(q, k, v):
    """TND: sequences of lengths (2, 3) and keys (3, 4), causal from the bottom
    right, one sequence at a time."""
    q_spans, k_spans = ((0, 2), (2, 5)), ((0, 3), (3, 7))
    heads = q.shape[1]
    out = np.zeros(q.shape)
    table = np.zeros((q.shape[0], heads, 2))
    for (q0, q1), (k0, k1) in zip(q_spans, k_spans):
        for n in range(heads):
            for i in range(q1 - q0):
                query = q[q0 + i, n].astype(np.float64)
                scores = [0.5 * float(np.dot(query, k[k0 + j, n]))
                          for j in range(k1 - k0) if j <= i + (k1 - k0) - (q1 - q0)]
                top = max(scores)
                weights = np.exp(np.array(scores) - top)
                out[q0 + i, n] = weights @ v[k0:k0 + len(scores), n] / weights.sum()
                table[q0 + i, n] = top, weights.sum()
    return [np.repeat(table[..., :1], 8, -1).astype(np.float32),
            np.repeat(table[..., 1:], 8, -1).astype(np.float32),
            np.zeros(1, q.dtype), out.astype(q.dtype)]


CASES += [
    OpCase("fas_tnd_causal", "FlashAttentionScore",
           "ops.auto_generate.FlashAttentionScore(2, scale_value=0.5, "
           "input_layout='TND', next_tokens=0, sparse_mode=3)"
           "(x, y, z, None, None, None, None, None, (2, 5), (3, 7))",
           [t((5, 2, 8), "float32", -1, 1), t((7, 2, 8), "float32", -1, 1),
            t((7, 2, 8), "float32", -1, 1)],
           "FlashAttentionScore TND (packed sequences 2 + 3 queries, 3 + 4 keys), "
           "sparse_mode 3" + FLOAT64_NOTE, reference=fas_tnd_reference),
]


def pfa_reference(layout, heads, kv_heads, keep_rule, with_mask=False, with_shift=False):
    """PromptFlashAttention's output: pse_shift added after scaling."""
    def reference(q, k, v, *extra):
        s_axis = 2 if layout == "BNSD" else 1
        dims = (q.shape[0], heads, kv_heads, q.shape[s_axis], k.shape[s_axis])
        mask = extra[0] if with_mask else None
        shift = extra[-1] if with_shift else None
        out, _ = loop_attention(
            split_heads(q, layout, heads), split_heads(k, layout, kv_heads),
            split_heads(v, layout, kv_heads), dims, 0.5,
            lambda b, n, i, j: keep_rule(i, j) and (mask is None or not mask[b, i, j]),
            None if shift is None else (lambda b, n, i, j: shift[0, n, i, j]))
        return [merge_heads(out, layout, dims, q.dtype)]
    return reference


CASES += [
    OpCase("pfa_bsh_gqa_mask", "PromptFlashAttention",
           "ops.auto_generate.PromptFlashAttention(num_heads=4, scale_value=0.5, "
           "input_layout='BSH', num_key_value_heads=2)(x, y, z, w)",
           [t((2, 4, 32), "float16", -1, 1), t((2, 4, 16), "float16", -1, 1),
            t((2, 4, 16), "float16", -1, 1),
            fixed([[[0, 0, 1, 1]] * 4, [[0, 1, 0, 0]] * 4], "bool")],
           "PromptFlashAttention BSH, 4 query / 2 key-value heads, sparse_mode 0: "
           "attn_mask (B, S1, S2) and next_tokens 0 (causal)" + FLOAT64_NOTE,
           reference=pfa_reference("BSH", 4, 2, lambda i, j: j <= i, with_mask=True)),
    OpCase("pfa_bnsd_shift_band", "PromptFlashAttention",
           "ops.auto_generate.PromptFlashAttention(num_heads=2, scale_value=0.5, "
           "pre_tokens=1, next_tokens=1, input_layout='BNSD', sparse_mode=4)"
           "(x, y, z, ops.broadcast_to(w, (2048, 2048)), None, None, v)",
           [t((1, 2, 3, 16), "float16", -1, 1), t((1, 2, 5, 16), "float16", -1, 1),
            t((1, 2, 5, 16), "float16", -1, 1), fixed([[0]], "bool"),
            t((1, 2, 3, 5), "float16", -1, 1)],
           "PromptFlashAttention BNSD, sparse_mode 4 (band pre_tokens 1 / next_tokens 1 "
           "from the bottom right), pse_shift added after scaling" + FLOAT64_NOTE,
           reference=pfa_reference("BNSD", 2, 2, lambda i, j: abs(j - (i + 2)) <= 1,
                                   with_shift=True)),
]


def ifa_reference(layout, heads, kv_heads, lengths=None):
    """IncreFlashAttention's output: one query row against the cache, keys
    past lengths[b] or masked left out."""
    def reference(q, k, v, *mask):
        s_axis = 2 if layout == "BNSD" else 1
        dims = (q.shape[0], heads, kv_heads, 1, k.shape[s_axis])
        flat = mask[0].reshape(q.shape[0], -1) if mask else None
        out, _ = loop_attention(
            split_heads(q, layout, heads), split_heads(k, layout, kv_heads),
            split_heads(v, layout, kv_heads), dims, 0.5,
            lambda b, n, i, j: (lengths is None or j < lengths[b])
            and (flat is None or not flat[b, j]))
        return [merge_heads(out, layout, dims, q.dtype)]
    return reference


CASES += [
    OpCase("ifa_bsh_gqa_lengths", "IncreFlashAttention",
           "ops.auto_generate.IncreFlashAttention(num_heads=4, input_layout='BSH', "
           "scale_value=0.5, num_key_value_heads=1)(x, [y], [z], w, (3, 6))",
           [t((2, 1, 32), "float16", -1, 1), t((2, 6, 8), "float16", -1, 1),
            t((2, 6, 8), "float16", -1, 1),
            fixed([[[0, 1, 0, 0, 0, 0]], [[0, 0, 0, 0, 1, 0]]], "bool")],
           "IncreFlashAttention BSH, 4 query heads / 1 key-value head (MQA), attn_mask "
           "(B, 1, S) and actual_seq_lengths (3, 6)" + FLOAT64_NOTE,
           reference=ifa_reference("BSH", 4, 1, lengths=(3, 6))),
    OpCase("ifa_bnsd", "IncreFlashAttention",
           "ops.auto_generate.IncreFlashAttention(num_heads=2, input_layout='BNSD', "
           "scale_value=0.5)(x, [y], [z])",
           [t((2, 2, 1, 16), "float16", -1, 1), t((2, 2, 5, 16), "float16", -1, 1),
            t((2, 2, 5, 16), "float16", -1, 1)],
           "IncreFlashAttention BNSD, 2 heads, no mask" + FLOAT64_NOTE,
           reference=ifa_reference("BNSD", 2, 2)),
]


def paged_reference(q, key_cache, value_cache, block_tables, context_lens):
    """PagedAttention, 4 query / 2 key-value heads: token t reads cache slot
    block_tables[t][p // block_size] * block_size + p % block_size for each
    position p < context_lens[t]."""
    block_size, heads, kv_heads = key_cache.shape[1], 4, 2
    dim = q.shape[1] // heads
    out = np.zeros(q.shape)
    for t_ in range(q.shape[0]):
        for n in range(heads):
            g = n // (heads // kv_heads)
            rows = [(block_tables[t_][p // block_size], p % block_size)
                    for p in range(context_lens[t_])]
            query = q[t_, n * dim:(n + 1) * dim].astype(np.float64)
            scores = np.array([0.5 * np.dot(query, key_cache[blk, off, g])
                               for blk, off in rows])
            weights = np.exp(scores - scores.max())
            values = np.array([value_cache[blk, off, g] for blk, off in rows], np.float64)
            out[t_, n * dim:(n + 1) * dim] = weights @ values / weights.sum()
    return [out.astype(q.dtype)]


CASES += [
    OpCase("paged_attention_gqa", "PagedAttention",
           "ops.auto_generate.PagedAttention(4, 0.5, 2)(x, y, z, w, v)",
           [t((3, 64), "float16", -1, 1), t((6, 4, 2, 16), "float16", -1, 1),
            t((6, 4, 2, 16), "float16", -1, 1),
            fixed([[5, 1, -1], [0, 2, 3], [4, -1, -1]], "int32"),
            fixed([7, 10, 2], "int32")],
           "PagedAttention, 3 decoding tokens, 4 query / 2 key-value heads, block_size 4 "
           "(unused table entries -1)" + FLOAT64_NOTE, reference=paged_reference),
]


def grouped_reference(x, weight, group_list):
    """Row r of x times the weight of the group whose [start, end) holds r."""
    ends = [int(e) for e in group_list]
    out = np.zeros((x.shape[0], weight.shape[2]))
    for r in range(x.shape[0]):
        group = next(e for e, end in enumerate(ends) if r < end)
        out[r] = x[r].astype(np.float64) @ weight[group]
    return [out.astype(x.dtype)]


CASES += [
    OpCase("grouped_matmul_groups", "GroupedMatmul",
           "ops.auto_generate.GroupedMatmul(split_item=3, group_type=0)"
           "([x], [y], None, None, None, None, None, z)",
           [t((7, 4)), t((3, 4, 5)), fixed([2, 2, 7], "int64")],
           "GroupedMatmul split_item 3, group_type 0: rows cut at group_list (2, 2, 7), "
           "an empty group" + FLOAT64_NOTE, reference=grouped_reference),
    OpCase("grouped_matmul_list", "GroupedMatmul",
           "ops.auto_generate.GroupedMatmul(split_item=0, group_type=-1)([x, y], [z, w], "
           "[v, u])",
           [t((3, 4), "float16"), t((2, 5), "float16"), t((4, 6), "float16"),
            t((5, 2), "float16"), t((6,), "float16"), t((2,), "float16")],
           "GroupedMatmul split_item 0: two independent x @ weight + bias" + FLOAT64_NOTE,
           reference=lambda a, b, wa, wb, ba, bb: [
               (a.astype(np.float64) @ wa + ba).astype(a.dtype),
               (b.astype(np.float64) @ wb + bb).astype(b.dtype)]),
]


def apply_rope_reference(interleaved):
    """ApplyRotaryPosEmb, cos_format 2 / 3: each (pair of) features of each
    head of token r turned by the row r of cos / sin."""
    def embed(x, cos, sin):
        dim = cos.shape[1]
        flat = x.reshape(-1, x.shape[-1]).astype(np.float64)
        out = np.zeros(flat.shape)
        for r, row in enumerate(flat):
            for h in range(row.size // dim):
                head = row[h * dim:(h + 1) * dim]
                for i in range(dim // 2):
                    a, b = (2 * i, 2 * i + 1) if interleaved else (i, i + dim // 2)
                    out[r, h * dim + a] = head[a] * cos[r, a] - head[b] * sin[r, a]
                    out[r, h * dim + b] = head[b] * cos[r, b] + head[a] * sin[r, b]
        return out.reshape(x.shape).astype(x.dtype)
    return lambda q, k, cos, sin, pos: [embed(q, cos, sin), embed(k, cos, sin)]


def swiglu_reference(x, axis):
    a, b = np.split(x.astype(np.float64), 2, axis=axis)
    return [(a / (1 + np.exp(-a)) * b).astype(x.dtype)]


CASES += [
    OpCase(f"apply_rotary_pos_emb_format{fmt}", "ApplyRotaryPosEmb",
           f"ops.auto_generate.ApplyRotaryPosEmb({fmt})(x, y, z, w, v)",
           [t(q, "float16", -2, 2), t(k, "float16", -2, 2), t((4, 8), "float16", -1, 1),
            t((4, 8), "float16", -1, 1), fixed([4, 4], "int32")],
           f"ApplyRotaryPosEmb cos_format {fmt} ({what}), query and key of different "
           "head counts" + FLOAT64_NOTE, reference=apply_rope_reference(fmt == 3))
    for fmt, q, k, what in ((2, (4, 32), (4, 16), "rotate_half"),
                            (3, (2, 2, 16), (2, 2, 8), "interleaved pairs, 3-D"))
] + [
    OpCase("swiglu_float32", "Swiglu", "ops.auto_generate.Swiglu()(x, -1)", [t((3, 8))],
           "Swiglu over the last axis" + FLOAT64_NOTE,
           reference=lambda x: swiglu_reference(x, -1)),
    OpCase("swiglu_float16_dim0", "Swiglu", "ops.auto_generate.Swiglu()(x, 0)",
           [t((4, 5), "float16")], "Swiglu over axis 0, float16" + FLOAT64_NOTE,
           reference=lambda x: swiglu_reference(x, 0)),
]


# --------------------------------------------------------------------------
# An op-pack model: a decoder block of an LLM exported for Ascend, as users
# write it (RmsNorm, rotary embedding, grouped-query FlashAttentionScore,
# Swiglu MLP). Its weights are constants drawn from a fixed seed, so the
# float64 reference below can draw them again.
# --------------------------------------------------------------------------
BLOCK = dict(batch=2, seq=4, hidden=16, heads=4, kv_heads=2, head_dim=4, ffn=24)


def block_weights():
    rng = np.random.default_rng(7)
    h, kv, f = BLOCK["hidden"], BLOCK["kv_heads"] * BLOCK["head_dim"], BLOCK["ffn"]
    shapes = {"norm1": (h,), "wq": (h, h), "wk": (h, kv), "wv": (h, kv), "wo": (h, h),
              "norm2": (h,), "w_up": (h, 2 * f), "w_down": (f, h)}
    return {name: rng.uniform(-0.5, 0.5, shape).astype(np.float32) + (
        1.0 if name.startswith("norm") else 0.0) for name, shape in shapes.items()}


class DecoderBlock(nn.Cell):
    """x + attention(RmsNorm(x)), then + Swiglu MLP; causal, 4 query heads
    reading 2 key/value heads, rotary embedding on queries and keys."""

    def __init__(self):
        super().__init__()
        for name, value in block_weights().items():
            setattr(self, name, ms.Tensor(value))
        self.norm = ops.auto_generate.RmsNorm(1e-6)
        self.attention = ops.auto_generate.FlashAttentionScore(
            BLOCK["heads"], scale_value=0.5, input_layout="BSH", sparse_mode=2)
        self.swiglu = ops.auto_generate.Swiglu()

    def rope(self, x, cos, sin, heads):
        b, s, _ = x.shape
        x = x.reshape(b, s, heads, BLOCK["head_dim"])
        return ops.rotary_position_embedding(x, cos, sin, 0).reshape(b, s, -1)

    def construct(self, x, cos, sin, mask):
        h = self.norm(x, self.norm1)[0]
        q = self.rope(ops.matmul(h, self.wq), cos, sin, BLOCK["heads"])
        k = self.rope(ops.matmul(h, self.wk), cos, sin, BLOCK["kv_heads"])
        v = ops.matmul(h, self.wv)
        big_mask = ops.broadcast_to(mask, (2048, 2048))
        attn = self.attention(q, k, v, None, None, None, big_mask)[3]
        x = x + ops.matmul(attn, self.wo)
        h = self.norm(x, self.norm2)[0]
        return x + ops.matmul(self.swiglu(ops.matmul(h, self.w_up), -1), self.w_down)


def decoder_block_reference(x, cos, sin, mask):
    """The block in float64, each op written as its formula."""
    w = {k: v.astype(np.float64) for k, v in block_weights().items()}
    b, s, hidden = x.shape
    d, heads, kv_heads = BLOCK["head_dim"], BLOCK["heads"], BLOCK["kv_heads"]

    def rms(t, gamma):
        return t / np.sqrt((t * t).mean(-1, keepdims=True) + 1e-6) * gamma

    def rope(t, n):
        t4 = t.reshape(b, s, n, d)
        return ref_rotary(t4, cos.astype(np.float64), sin.astype(np.float64), 0)[0] \
            .reshape(b, s, n * d)

    x = x.astype(np.float64)
    h = rms(x, w["norm1"])
    q, k, v = rope(h @ w["wq"], heads), rope(h @ w["wk"], kv_heads), h @ w["wv"]
    dims = (b, heads, kv_heads, s, s)
    out, _ = loop_attention(split_heads(q, "BSH", heads), split_heads(k, "BSH", kv_heads),
                            split_heads(v, "BSH", kv_heads), dims, 0.5,
                            lambda bb, n, i, j: j <= i)
    x = x + merge_heads(out, "BSH", dims, np.float64) @ w["wo"]
    h = rms(x, w["norm2"]) @ w["w_up"]
    gate, up = h[..., :BLOCK["ffn"]], h[..., BLOCK["ffn"]:]
    return [(x + (gate / (1 + np.exp(-gate)) * up) @ w["w_down"]).astype(np.float32)]


CASES += [
    OpCase("ascend_decoder_block", ("RmsNorm", "RotaryPositionEmbedding",
                                    "FlashAttentionScore", "Swiglu"), None,
           [t((2, 4, 16), "float32", -1, 1), t((1, 4, 1, 4), "float32", -1, 1),
            t((1, 4, 1, 4), "float32", -1, 1), fixed([[0]], "uint8")],
           "An LLM decoder block of Ascend ops (RmsNorm, rotary embedding, causal "
           "grouped-query FlashAttentionScore, Swiglu MLP)" + FLOAT64_NOTE,
           reference=decoder_block_reference, cell=DecoderBlock),
]


# --------------------------------------------------------------------------
# ReshapeAndCache writes a Parameter pair in place: the paged key and value
# caches of an LLM's decode step. make_golden overwrites every Parameter with
# seeded values before the export; the references draw them again.
# --------------------------------------------------------------------------
CACHE = dict(blocks=3, block_size=4, kv_heads=2, head_dim=8)


def seeded_parameters(case):
    """``case``'s Parameters as make_golden.make_case sets them (its seed)."""
    net = case.cell()
    make_golden.randomize_parameters(net, np.random.default_rng([case.seed, 0]),
                                     make_golden.Case.conv_gain)
    return [p.asnumpy() for p in net.get_parameters()]


class CacheWrite(nn.Cell):
    """ReshapeAndCache into two float16 Parameter caches; returns both caches
    (read after the write) and the op's own output."""

    def __init__(self):
        super().__init__()
        shape = tuple(CACHE.values())
        self.key_cache = ms.Parameter(ms.Tensor(np.zeros(shape, np.float16)))
        self.value_cache = ms.Parameter(ms.Tensor(np.zeros(shape, np.float16)))
        self.write = ops.auto_generate.ReshapeAndCache()

    def construct(self, key, value, slots):
        out = self.write(key, value, self.key_cache, self.value_cache, slots)
        return ops.depend(self.key_cache, out), ops.depend(self.value_cache, out)


class CachedDecode(CacheWrite):
    """The LLM decode step: write this step's keys and values, then
    PagedAttention (4 query / 2 key-value heads) over the updated caches."""

    def __init__(self):
        super().__init__()
        self.attention = ops.auto_generate.PagedAttention(4, 0.5, CACHE["kv_heads"])

    def construct(self, query, key, value, slots, block_tables, context_lens):
        out = self.write(key, value, self.key_cache, self.value_cache, slots)
        query = ops.depend(query, out)
        return self.attention(query, self.key_cache, self.value_cache, block_tables,
                              context_lens)


def cache_write_reference(key_cache, value_cache, key, value, slots):
    """Token by token: slot s is row s % block_size of block s // block_size."""
    caches = [key_cache.copy(), value_cache.copy()]
    for cache, new in zip(caches, (key, value)):
        rows = new.reshape(len(slots), CACHE["kv_heads"], CACHE["head_dim"])
        for token, slot in enumerate(slots):
            for head in range(CACHE["kv_heads"]):
                for d in range(CACHE["head_dim"]):
                    cache[slot // CACHE["block_size"], slot % CACHE["block_size"],
                          head, d] = rows[token, head, d]
    return caches


def cache_case(name, cell, expr_inputs, description, reference):
    """An OpCase of ``cell`` whose reference also gets the seeded caches."""
    case = OpCase(name, ("ReshapeAndCache",) + (("PagedAttention",) if cell is
                                                CachedDecode else ()),
                  None, expr_inputs, description + FLOAT64_NOTE, cell=cell)
    return dataclasses.replace(
        case, reference=lambda *arrays: reference(*seeded_parameters(case), *arrays))


CASES += [
    cache_case("reshape_and_cache", CacheWrite,
               [t((1, 3, 16), "float16", -1, 1), t((1, 3, 16), "float16", -1, 1),
                fixed([5, 0, 11], "int32")],
               "ReshapeAndCache of 3 tokens (batch, seq, hidden) into float16 "
               "caches (3 blocks of 4, 2 heads, head_dim 8) at slots 5, 0, 11; outputs: "
               "the caches read after the write", cache_write_reference),
    cache_case("reshape_and_cache_paged_attention", CachedDecode,
               [t((2, 32), "float16", -1, 1), t((2, 16), "float16", -1, 1),
                t((2, 16), "float16", -1, 1), fixed([6, 9], "int32"),
                fixed([[0, 1, -1], [1, 0, 2]], "int32"), fixed([7, 10], "int32")],
               "The LLM decode step: ReshapeAndCache of 2 tokens (num_tokens, hidden) at "
               "slots 6 and 9, then PagedAttention (4 query / 2 key-value heads) reading "
               "the updated caches, each token's new key the last of its context",
               lambda kc, vc, q, k, v, slots, tables, lens: paged_reference(
                   q, *cache_write_reference(kc, vc, k, v, slots), tables, lens)),
]
