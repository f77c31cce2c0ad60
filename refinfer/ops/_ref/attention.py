"""Scaled dot-product attention: the one reference behind the Ascend attention
ops (FlashAttentionScore, PromptFlashAttention, IncreFlashAttention,
PagedAttention), with their layout and mask adapters.

Each op brings query, key and value to (B, N, S, D) with :func:`to_bnsd`,
builds a boolean *discard* mask (True: that key takes no part for that
query) from its mask inputs and sparse mode, calls :func:`attend`, and puts
the result back in its layout with :func:`from_bnsd`.
"""
from __future__ import annotations

import numpy as np

from .common import compute_dtype

# pre_tokens / next_tokens' default (INT32_MAX): a band edge never reached
UNBOUNDED = 2 ** 31 - 1

# MindSpore's sparse_mode values refinfer follows (5 prefix, 6 global,
# 7 dilated and 8 block_local are documented as not implemented)
SPARSE_MODES = {0: "defaultMask", 1: "allMask", 2: "leftUpCausal",
                3: "rightDownCausal", 4: "band"}

QUANTISED = "float attention without quantisation or dropout"

_HIDDEN = {"BSH": (0, 1), "SBH": (1, 0)}      # batch and sequence axes
_SPLIT = {"BNSD": (0, 1, 2, 3), "BSND": (0, 2, 1, 3)}


def to_bnsd(x: np.ndarray, layout: str, heads: int, op: str, name: str) -> np.ndarray:
    """``x`` in ``layout`` (BSH, SBH with H = heads * D; BNSD, BSND) as
    (B, heads, S, D)."""
    if layout in _HIDDEN:
        if x.ndim != 3 or heads < 1 or x.shape[-1] % heads:
            raise ValueError(f"{op}: {name} must be {layout} with H a multiple of "
                             f"{heads} heads, got shape {list(x.shape)}")
        b_axis, s_axis = _HIDDEN[layout]
        x = x.transpose(b_axis, s_axis, 2)
        return x.reshape(*x.shape[:2], heads, -1).transpose(0, 2, 1, 3)
    if layout in _SPLIT:
        order = _SPLIT[layout]
        if x.ndim != 4 or x.shape[order[1]] != heads:
            raise ValueError(f"{op}: {name} must be {layout} with N = {heads} "
                             f"heads, got shape {list(x.shape)}")
        return x.transpose(order)
    raise ValueError(f"{op}: input_layout {layout} is not supported here "
                     f"(expected one of BSH, SBH, BNSD, BSND)")


def kv_heads(x: np.ndarray, layout: str, depth: int) -> int:
    """N2 of a key or value in ``layout``: from its shape (BSH, SBH: H2 / D
    with the query's D = ``depth``); 0 where its rank does not fit."""
    if layout in _HIDDEN:
        return x.shape[-1] // depth if x.ndim == 3 and depth else 0
    return x.shape[1 if layout == "BNSD" else 2] if x.ndim == 4 else 0


def from_bnsd(out: np.ndarray, layout: str) -> np.ndarray:
    """(B, N, S, D) back in ``layout`` (the inverse of :func:`to_bnsd`)."""
    if layout in _HIDDEN:
        merged = out.transpose(0, 2, 1, 3).reshape(out.shape[0], out.shape[2], -1)
        return merged if layout == "BSH" else merged.transpose(1, 0, 2)
    return out.transpose(_SPLIT[layout])


def attend(query, key, value, scale: float, discard=None, bias=None,
           bias_first: bool = False, op: str = ""):
    """Attention per head, in float32 (float16 inputs) or float64::

        scores = (Q K^T + bias) * scale     bias_first (FlashAttentionScore's
                                            real_shift)
        scores = Q K^T * scale + bias       otherwise (pse_shift)
        scores[discard] = -inf
        out = softmax(scores, keys) V

    query (B, N1, S1, D); key (B, N2, S2, D) and value (B, N2, S2, Dv) with
    N1 a multiple of N2: query head h reads key/value head h // (N1 / N2)
    (grouped-query attention; N2 = 1 is multi-query). ``discard`` (bool) and
    ``bias`` broadcast to (B, N1, S1, S2). A query whose keys are all
    discarded gets zeros. Returns (out, row_max, row_sum), the last two
    (B, N1, S1): each row's largest score and sum of exp(score - max)
    (-inf and 0 for a row with every key discarded).
    """
    heads, kv_heads = query.shape[1], key.shape[1]
    if kv_heads < 1 or heads % kv_heads or value.shape[1] != kv_heads:
        raise ValueError(f"{op}: query's {heads} heads must be a multiple of key's "
                         f"and value's, got {kv_heads} and {value.shape[1]}")
    if key.shape[:3] != value.shape[:3] or query.shape[0] != key.shape[0] \
            or query.shape[3] != key.shape[3]:
        raise ValueError(f"{op}: query (B, N1, S1, D) {list(query.shape)}, key (B, N2, "
                         f"S2, D) {list(key.shape)} and value (B, N2, S2, Dv) "
                         f"{list(value.shape)} disagree (as BNSD)")
    work = compute_dtype(query.dtype)
    q, k, v = (a.astype(work, copy=False) for a in (query, key, value))
    k, v = (np.repeat(a, heads // kv_heads, axis=1) for a in (k, v))
    scores = q @ np.swapaxes(k, -1, -2)
    if bias is None:
        scores = scores * scale
    elif bias_first:
        scores = (scores + bias.astype(work, copy=False)) * scale
    else:
        scores = scores * scale + bias.astype(work, copy=False)
    if discard is not None:
        scores = np.where(discard, -np.inf, scores)
    row_max = scores.max(axis=-1, keepdims=True)
    some_kept = np.isfinite(row_max)
    weights = np.exp(scores - np.where(some_kept, row_max, 0))
    row_sum = weights.sum(axis=-1, keepdims=True)
    out = (weights / np.where(some_kept, row_sum, 1)) @ v
    return out, row_max[..., 0], row_sum[..., 0]


def band(s1: int, s2: int, pre_tokens: int, next_tokens: int, offset=0) -> np.ndarray:
    """Discard outside a band: key j is dropped for query i when
    ``j - i - offset > next_tokens`` or ``i + offset - j > pre_tokens``.
    ``offset`` (an int or one per batch) moves the band's diagonal right.
    Returns (B or 1, 1, S1, S2)."""
    offsets = np.asarray(offset, np.int64).reshape(-1, 1, 1, 1)
    distance = np.arange(s2)[None, :] - np.arange(s1)[:, None] - offsets
    return (distance > next_tokens) | (-distance > pre_tokens)


def decode_mask_shapes(batch: int, keys: int) -> tuple:
    """The shapes a decoding step's attn_mask may have (IncreFlashAttention:
    one query row per sequence): (B, S), (B, 1, S), (B, 1, 1, S)."""
    return (batch, keys), (batch, 1, keys), (batch, 1, 1, keys)


def mask_bnss(mask: np.ndarray, op: str) -> np.ndarray:
    """An attention mask ((S1, S2), (B, S1, S2), (B, 1 or N, S1, S2); nonzero
    = discard) as a bool array that broadcasts to (B, N, S1, S2)."""
    if mask.ndim not in (2, 3, 4):
        raise ValueError(f"{op}: attn_mask must be (S1, S2), (B, S1, S2) or "
                         f"(B, N, S1, S2), got shape {list(mask.shape)}")
    mask = mask.astype(bool)
    return mask[:, None] if mask.ndim == 3 else mask


def sparse_discard(op: str, mode: int, attn_mask, s1: int, s2: int,
                   pre_tokens: int, next_tokens: int, offset=None):
    """The discard mask of ``sparse_mode`` (FlashAttentionScore,
    PromptFlashAttention), or None for no mask:

        0 defaultMask: none without attn_mask; with it, attn_mask or outside
          the band (pre_tokens, next_tokens) counted from the top left
        1 allMask: attn_mask alone
        2 leftUpCausal: key j > query i
        3 rightDownCausal: key j > query i + (S2 - S1)
        4 band: outside (pre_tokens, next_tokens) counted from the bottom
          right (offset S2 - S1)

    Modes 2 to 4 build their mask here: the compressed (2048, 2048) mask
    Ascend's kernel takes for them is not read. ``offset``: S2 - S1 per
    batch where the sequences have actual lengths.
    """
    offset = s2 - s1 if offset is None else offset
    if mode == 0:
        if attn_mask is None:
            return None
        return mask_bnss(attn_mask, op) | band(s1, s2, pre_tokens, next_tokens)
    if mode == 1:
        if attn_mask is None:
            raise ValueError(f"{op}: sparse_mode 1 (allMask) needs attn_mask")
        return mask_bnss(attn_mask, op)
    if mode == 2:
        return band(s1, s2, UNBOUNDED, 0)
    if mode == 3:
        return band(s1, s2, UNBOUNDED, 0, offset)
    if mode == 4:
        return band(s1, s2, pre_tokens, next_tokens, offset)
    modes = ", ".join(f"{k} {v}" for k, v in SPARSE_MODES.items())
    raise ValueError(f"{op}: sparse_mode must be one of {modes}, got {mode}")


def per_batch(op: str, name: str, lengths, batch: int) -> np.ndarray:
    """``lengths`` (one for every batch entry, or one each) as (batch,);
    a ValueError naming the argument where their count is neither."""
    values = np.asarray(lengths, np.int64).reshape(-1)
    if values.size not in (1, batch):
        raise ValueError(f"{op}: {name} must hold one length or one per batch entry "
                         f"({batch}), got {values.size}")
    return np.broadcast_to(values, (batch,))


def past_lengths(lengths, size: int) -> np.ndarray:
    """Discard keys past each batch's actual length: (B, 1, 1, size)."""
    ends = np.asarray(lengths, np.int64).reshape(-1, 1, 1, 1)
    return np.arange(size) >= ends
