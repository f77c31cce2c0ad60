"""The ``cuda`` kernels of the attention ops (FlashAttentionScore,
PromptFlashAttention, IncreFlashAttention, PagedAttention): one device
runner, :func:`attend`, the twin of ``ops/_ref/attention.attend``, under
every op's own layout and mask arguments (declared in :data:`KERNELS`).

One thread per query row (b, h, i), a grid-stride loop over the rows::

    s_j = (q . k_j + bias) * scale   bias_first (real_shift), else
    s_j = q . k_j * scale + bias     (pse_shift)
    m   = max of s_j over the keys j kept         (pass 1)
    out = sum_j exp(s_j - m) v_j / sum_j exp(s_j - m)   (pass 2)

two passes over the keys in the compute dtype (float32 stays float32;
float16 is read as float32 and the result, accumulated in float32,
rounded once to float16, as the reference). A key is
discarded (takes no part) where the mask tensor is nonzero, outside the
band of the sparse mode (``distance = j - i - shift[b]`` above
``next_tokens`` or below ``-pre_tokens``: computed here, never uploaded),
or at or past the batch's key length; a row with every key discarded
gets zeros (max -inf, sum 0), as the reference. Query heads read key
head h // (N1 / N2) (grouped-query attention).

Layouts are strides: q, k, v and out are read and written where they lie
through the geometry of the reference's own ``to_bnsd`` view of a byte
probe (``index.probe``), so BSH, SBH, BNSD and BSND cost no transpose,
and the reference's layout checks have one implementation (a layout it
refuses declines here, and the reference raises its error). PagedAttention
reads its block-paged cache through a row table (token t's key j is cache
row block_tables[t, j // block_size] * block_size + j % block_size), made
on the device; an out-of-range block id or context length sets a flag,
read back, and the kernel declines. FlashAttentionScore's TND layout
(sequences packed end to end) runs one launch per sequence, each a
(1, N, S, D) view of its rows.

What is declined (the CPU kernel runs, or raises the reference's error):
operands of different dtypes, dropout,
quantisation inputs, sparse modes outside 0-4.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from refinfer import registry
from refinfer.ops._ref.common import compute_dtype
from refinfer.ops._ref.attention import (UNBOUNDED, decode_mask_shapes, from_bnsd,
                                         kv_heads, per_batch, to_bnsd)

from . import device
from .device import cuda, dmath
from .fill import filled
from .index import cast, concat, probe, transpose, view_geometry
from .layout import broadcast_strides, flat

DTYPES = tuple(map(np.dtype, (np.float16, np.float32, np.float64)))
STAT_COPIES = 8     # FlashAttentionScore's softmax statistics, 8 per row


class Heads(NamedTuple):
    """A tensor read (or written) as (B, N, S, D): the flat device array,
    the four sizes and the four element strides."""
    array: object
    dims: tuple
    strides: tuple


@device.device_function
def _discarded(b, h, i, j, mask, mask_strides, band, shift, kv_len):
    """Whether key j takes no part in query row (b, h, i): past the
    batch's key length, outside the band (pre_tokens, next_tokens) moved
    by shift[b], or where the mask is nonzero."""
    if j >= kv_len[b]:
        return True
    distance = j - i - shift[b]
    if distance > band[1] or -distance > band[0]:
        return True
    if mask.size:
        return mask[b * mask_strides[0] + h * mask_strides[1] + i * mask_strides[2]
                    + j * mask_strides[3]] != 0
    return False


@device.device_function
def _score(q, q_at, q_step, k, k_at, k_step, depth, b, h, i, j, bias, bias_strides,
           bias_first, scale, zero):
    """The scaled score of query row q_at against key row k_at, bias
    (when given) added before or after the scale."""
    total = zero
    for d in range(depth):      # (zero + x: float16 read as the compute dtype)
        total += (zero + q[q_at + d * q_step]) * (zero + k[k_at + d * k_step])
    if bias.size == 0:
        return total * scale
    shift = zero + bias[b * bias_strides[0] + h * bias_strides[1] + i * bias_strides[2]
                 + j * bias_strides[3]]
    return (total + shift) * scale if bias_first else total * scale + shift


@device.jit
def attend_rows(q, k, v, out, dims, q_strides, k_strides, v_strides, out_strides,
                scale, bias, bias_strides, bias_first, mask, mask_strides, band,
                shift, kv_len, q_len, rows, row_max, row_sum, zero, lowest):
    """Attention of every query row (b, h, i); dims = (B, N1, S1, S2, D,
    Dv, N1 / N2); rows (B, S2) the cache row of each key (paged) or empty
    (key j is row j); q_len[b]: rows from it on are zeros; row_max and
    row_sum (rows, copies) float32 statistics, or empty; zero and lowest
    (-inf) in the dtype of the scores."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    heads, s1, s2, depth, v_depth, group = (dims[1], dims[2], dims[3], dims[4],
                                            dims[5], dims[6])
    for r in range(start, dims[0] * heads * s1, stride):
        b, h, i = r // (heads * s1), (r // s1) % heads, r % s1
        g = h // group
        q_at = b * q_strides[0] + h * q_strides[1] + i * q_strides[2]
        o_at = b * out_strides[0] + h * out_strides[1] + i * out_strides[2]
        for d in range(v_depth):
            out[o_at + d * out_strides[3]] = zero
        best, total = lowest, zero
        if i < q_len[b]:
            for j in range(s2):
                if not _discarded(b, h, i, j, mask, mask_strides, band, shift, kv_len):
                    row = rows[b * s2 + j] if rows.size else j
                    score = _score(q, q_at, q_strides[3], k,
                                   b * k_strides[0] + g * k_strides[1]
                                   + row * k_strides[2], k_strides[3], depth, b, h,
                                   i, j, bias, bias_strides, bias_first, scale, zero)
                    if score > best or score != score:      # (NaN stays)
                        best = score
            # The reference's rule: exp(s - max) where the max is finite,
            # exp(s) and no division where it is not (every key discarded
            # or -inf: zeros; inf or NaN: what NumPy's arithmetic gives).
            finite = best - best == zero
            base = best if finite else zero
            for j in range(s2):
                if not _discarded(b, h, i, j, mask, mask_strides, band, shift, kv_len):
                    row = rows[b * s2 + j] if rows.size else j
                    weight = dmath.exp(_score(
                        q, q_at, q_strides[3], k,
                        b * k_strides[0] + g * k_strides[1] + row * k_strides[2],
                        k_strides[3], depth, b, h, i, j, bias, bias_strides,
                        bias_first, scale, zero) - base)
                    total += weight
                    v_at = b * v_strides[0] + g * v_strides[1] + row * v_strides[2]
                    for d in range(v_depth):
                        out[o_at + d * out_strides[3]] += \
                            weight * (zero + v[v_at + d * v_strides[3]])
            if finite:
                for d in range(v_depth):
                    out[o_at + d * out_strides[3]] /= total
        if row_max.shape[0]:
            for c in range(row_max.shape[1]):
                row_max[r, c], row_sum[r, c] = best, total


@device.jit
def paged_rows(block_tables, context_lens, block_size, blocks, rows, bad):
    """rows[t, j] = block_tables[t, j // block_size] * block_size + j %
    block_size for the keys j < context_lens[t] (0 past it); bad[0] = 1
    where a context length is outside [1, S2] or a block id used is
    outside [0, blocks)."""
    start, stride = cuda.grid(1), cuda.gridsize(1)
    s2 = rows.shape[1]
    for n in range(start, rows.size, stride):
        t, j = n // s2, n % s2
        length = context_lens[t]
        rows[t, j] = 0
        if length < 1 or length > s2:
            bad[0] = 1
        elif j < length:
            block = block_tables[t, j // block_size]
            if block < 0 or block >= blocks:
                bad[0] = 1
            else:
                rows[t, j] = block * block_size + j % block_size


# -- the runner ------------------------------------------------------------------
def viewed_heads(x, make_view) -> Heads | None:
    """x read as (B, N, S, D) through ``make_view`` (a probe of x's shape
    -> a NumPy view of it); None where that refuses or copies."""
    base = probe(tuple(x.shape))
    try:
        geometry = view_geometry(base, make_view(base))
    except ValueError:
        return None
    if geometry is None or geometry[2]:
        return None
    return Heads(flat(x), *geometry[:2])


def heads_of(x, layout: str, heads: int) -> Heads | None:
    """x read as (B, heads, S, D) in ``layout`` through the reference's
    ``to_bnsd``; None where it refuses the shape."""
    return viewed_heads(x, lambda view: to_bnsd(view, layout, heads, "", ""))


def _output(layout: str, dims: tuple, dtype) -> tuple:
    """(device array in ``layout``, its Heads) of the (B, N, S, Dv) result."""
    shape = from_bnsd(probe(dims), layout).shape
    out = device.empty(shape, dtype)
    return out, heads_of(out, layout, dims[1])


def _broadcast(tensor, shape: tuple):
    """(flat tensor, strides over ``shape``) of a tensor that broadcasts to
    it, an empty array and zero strides for None; None where it does not."""
    if tensor is None:
        return device.empty(0, np.uint8), device.constant([0, 0, 0, 0])
    try:
        if np.broadcast_shapes(tuple(tensor.shape), shape) != shape:
            return None
    except ValueError:
        return None
    return flat(tensor), broadcast_strides(tuple(tensor.shape), shape)


def _per_batch(values, batch: int, default: int):
    """A device constant of one int per batch: ``values`` (a list, one
    for all, or None: ``default``) broadcast by the reference's
    ``per_batch``; None where it refuses them."""
    try:
        return device.constant(per_batch("", "", default if values is None else values,
                                         batch))
    except ValueError:
        return None


def attend(q: Heads, k: Heads, v: Heads, out: Heads, scale, *, mask=None, bias=None,
           bias_first=False, band=(UNBOUNDED, UNBOUNDED), shift=None, kv_len=None,
           q_len=None, rows=None, statistics=0) -> tuple | None:
    """Attention of q against k and v written into out (all as (B, N, S,
    D); out in the compute dtype); ``mask`` (nonzero: discard) and
    ``bias`` tensors broadcast to (B, N1, S1, S2); ``band`` (pre_tokens,
    next_tokens) around the diagonal moved by ``shift`` per batch;
    ``kv_len``, ``q_len`` per batch (device arrays, lists or None);
    ``rows`` the paged row table. Returns the (row_max, row_sum) float32
    statistics with ``statistics`` copies a row (empty arrays for 0), or
    None where the operands do not fit."""
    batch, heads, s1, depth = q.dims
    _, kv_heads_, s2, _ = k.dims
    dtype = q.array.dtype
    work = compute_dtype(dtype)
    if (dtype not in DTYPES or any(x.array.dtype != dtype for x in (k, v))
            or out.array.dtype != work
            or bias is not None and bias.dtype != dtype or kv_heads_ < 1
            or heads % kv_heads_ or v.dims[:3] != k.dims[:3] or k.dims[3] != depth
            or k.dims[0] != (batch if rows is None else 1)
            or out.dims != (batch, heads, s1, v.dims[3])):
        return None
    shape = (batch, heads, s1, s2)
    masked, biased = _broadcast(mask, shape), _broadcast(bias, shape)
    lengths = [n if device.is_device_array(n) else _per_batch(n, batch, default)
               for n, default in ((kv_len, s2), (q_len, s1), (shift, 0))]
    if masked is None or biased is None or any(n is None for n in lengths):
        return None
    count = batch * heads * s1
    stats = [device.empty((count if statistics else 0, statistics or 1), np.float32)
             for _ in range(2)]
    if count:
        device.launch(
            attend_rows, count, q.array, k.array, v.array, out.array,
            device.constant([batch, heads, s1, s2, depth, v.dims[3],
                             heads // kv_heads_]),
            *(device.constant(x.strides) for x in (q, k, v, out)), work.type(scale),
            *biased, bool(bias_first), *masked, device.constant(band), lengths[2],
            lengths[0], lengths[1],
            device.empty(0, np.int64) if rows is None else flat(rows), *stats,
            work.type(0), work.type(-np.inf))
    return tuple(stats)


# -- the ops -----------------------------------------------------------------------
def _sparse(mode: int, attn_mask, pre_tokens: int, next_tokens: int, offset):
    """(mask as (B, N, S1, S2) or None, band, shift) of ``sparse_mode``, as
    ``_ref/attention.sparse_discard`` builds them; None where it refuses."""
    mask = None
    if attn_mask is not None and mode in (0, 1):
        if attn_mask.ndim not in (2, 3, 4):
            return None
        mask = attn_mask.reshape(attn_mask.shape[0], 1, *attn_mask.shape[1:]) \
            if attn_mask.ndim == 3 else attn_mask
    whole = (UNBOUNDED, UNBOUNDED)
    choices = {0: (mask, (pre_tokens, next_tokens) if mask is not None else whole, 0),
               1: (mask, whole, 0), 2: (None, (UNBOUNDED, 0), 0),
               3: (None, (UNBOUNDED, 0), offset), 4: (None, (pre_tokens, next_tokens),
                                                      offset)}
    if mode not in choices or mode == 1 and mask is None:
        return None
    return choices[mode]


def _layout_heads(query, key, value, layout: str, heads: int, kv_heads_: int):
    """(q, k, v) as Heads in ``layout``; kv_heads_ 0: from the key's shape
    (FlashAttentionScore's rule); None where one does not fit."""
    q = heads_of(query, layout, heads)
    if q is None:
        return None
    k, v = (heads_of(x, layout,
                     kv_heads_ or kv_heads(device.stand_in(x), layout, q.dims[3]))
            for x in (key, value))
    return None if k is None or v is None else (q, k, v)


def _attention(query, operands, layout: str, scale, statistics=0, **masks):
    """The attention result in query's layout and dtype (and the
    statistics), or None where the runner declines."""
    q, k, v = operands
    out, written = _output(layout, q.dims[:3] + v.dims[3:], compute_dtype(query.dtype))
    if written is None:
        return None
    stats = attend(q, k, v, written, scale, statistics=statistics, **masks)
    return None if stats is None else (_rounded(out, query.dtype), stats)


def _rounded(out, dtype):
    """The result in the query's dtype: float16 rounded once from the
    float32 it was computed in (Cast's kernel)."""
    return out if out.dtype == dtype else cast(out, dtype)


def flash_attention_score(query, key, value, real_shift=None, drop_mask=None,
                          padding_mask=None, attn_mask=None, prefix=None,
                          actual_seq_qlen=None, actual_seq_kvlen=None, head_num=1,
                          keep_prob=1.0, scale_value=1.0, pre_tokens=UNBOUNDED,
                          next_tokens=UNBOUNDED, inner_precise=0, input_layout="BSH",
                          sparse_mode=0):
    """FlashAttentionScore's (softmax_max, softmax_sum, softmax_out,
    attention_out); dropout and the padding and prefix inputs decline."""
    if any(x is not None for x in (drop_mask, padding_mask, prefix)) or keep_prob != 1:
        return None
    if input_layout == "TND":
        return _packed(query, key, value, real_shift, attn_mask, actual_seq_qlen,
                       actual_seq_kvlen, scale_value, pre_tokens, next_tokens,
                       sparse_mode)
    operands = _layout_heads(query, key, value, input_layout, head_num, 0)
    if operands is None:
        return None
    s1, s2 = operands[0].dims[2], operands[1].dims[2]
    sparse = _sparse(sparse_mode, attn_mask, pre_tokens, next_tokens, s2 - s1)
    result = None if sparse is None else _attention(
        query, operands, input_layout, scale_value, STAT_COPIES, mask=sparse[0],
        band=sparse[1], shift=sparse[2], bias=real_shift, bias_first=True)
    if result is None:
        return None
    out, (row_max, row_sum) = result
    shape = operands[0].dims[:3] + (STAT_COPIES,)
    return (row_max.reshape(shape), row_sum.reshape(shape),
            filled(1, np.zeros((), query.dtype)), out)


def _sequence(x, start: int, end: int) -> Heads | None:
    """Rows start:end of a packed (T, N, D) tensor as (1, N, end - start, D)."""
    return viewed_heads(x[start:end], lambda view: view.transpose(1, 0, 2)[None])


def _packed(query, key, value, real_shift, attn_mask, q_ends, kv_ends, scale,
            pre_tokens, next_tokens, sparse_mode):
    """FlashAttentionScore's TND layout: each packed sequence attends on
    its own (a launch per sequence), its statistics put back as (T, N, 8);
    None where the reference refuses (or meets an empty key sequence)."""
    if q_ends is None or kv_ends is None or not q_ends or len(q_ends) != len(kv_ends) \
            or any(x.ndim != 3 for x in (query, key, value)) \
            or q_ends[-1] != query.shape[0] or kv_ends[-1] != key.shape[0] \
            or real_shift is not None or attn_mask is not None and sparse_mode < 2:
        return None
    spans = [list(zip((0, *ends[:-1]), ends)) for ends in (q_ends, kv_ends)]
    if any(a > b for (a, b) in spans[0]) or any(a >= b for (a, b) in spans[1]):
        return None
    heads = query.shape[1]
    out = device.empty((query.shape[0], heads, value.shape[2]),
                       compute_dtype(query.dtype))
    stats = [device.empty((query.shape[0], heads, STAT_COPIES), np.float32)
             for _ in range(2)]
    for (q0, q1), (k0, k1) in zip(*spans):
        sparse = _sparse(sparse_mode, None, pre_tokens, next_tokens,
                         (k1 - k0) - (q1 - q0))
        if sparse is None:
            return None
        if q1 == q0:
            continue
        parts = attend(_sequence(query, q0, q1), _sequence(key, k0, k1),
                       _sequence(value, k0, k1), _sequence(out, q0, q1), scale,
                       band=sparse[1], shift=sparse[2], statistics=STAT_COPIES)
        if parts is None:
            return None
        for whole, part in zip(stats, parts):       # (N, S, 8) -> (S, N, 8)
            whole[q0:q1].copy_to_device(
                transpose(part.reshape(heads, q1 - q0, STAT_COPIES), (1, 0, 2)))
    return (*stats, filled(1, np.zeros((), query.dtype)), _rounded(out, query.dtype))


def prompt_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None,
                           actual_seq_lengths_kv=None, pse_shift=None, deq_scale1=None,
                           quant_scale1=None, deq_scale2=None, quant_scale2=None,
                           quant_offset2=None, num_heads=1, scale_value=1.0,
                           pre_tokens=UNBOUNDED, next_tokens=0, input_layout="BSH",
                           num_key_value_heads=0, sparse_mode=0, inner_precise=1):
    """PromptFlashAttention: query rows past actual_seq_lengths are zeros,
    keys past actual_seq_lengths_kv discarded; quantisation declines."""
    if any(x is not None for x in (deq_scale1, quant_scale1, deq_scale2,
                                   quant_scale2, quant_offset2)):
        return None
    operands = _layout_heads(query, key, value, input_layout, num_heads,
                             num_key_value_heads or num_heads)
    if operands is None:
        return None
    batch, _, s1, _ = operands[0].dims
    s2 = operands[1].dims[2]
    try:
        q_len = per_batch("", "", actual_seq_lengths or s1, batch)
        kv_len = per_batch("", "", actual_seq_lengths_kv or s2, batch)
    except ValueError:
        return None
    sparse = _sparse(sparse_mode, attn_mask, pre_tokens, next_tokens, kv_len - q_len)
    result = None if sparse is None else _attention(
        query, operands, input_layout, scale_value, mask=sparse[0], band=sparse[1],
        shift=sparse[2], bias=pse_shift, kv_len=kv_len, q_len=q_len)
    return None if result is None else result[0]


def _joined(tensors):
    """IncreFlashAttention's key or value list as one device array (the
    batch's entries joined by Concat's kernel); None where it declines."""
    items = list(tensors) if isinstance(tensors, (list, tuple)) else [tensors]
    if not items or not all(map(device.is_device_array, items)):
        return None
    return items[0] if len(items) == 1 else concat(items, 0)


def incre_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None,
                          pse_shift=None, dequant_scale1=None, quant_scale1=None,
                          dequant_scale2=None, quant_scale2=None, quant_offset2=None,
                          antiquant_scale=None, antiquant_offset=None, block_table=None,
                          kv_padding_size=None, num_heads=1, input_layout="BSH",
                          scale_value=1.0, num_key_value_heads=0, block_size=0,
                          inner_precise=1):
    """IncreFlashAttention: attn_mask (B, ..., S) and actual_seq_lengths
    mask the cache; quantisation and paged blocks decline."""
    if any(x is not None for x in (dequant_scale1, quant_scale1, dequant_scale2,
                                   quant_scale2, quant_offset2, antiquant_scale,
                                   antiquant_offset, block_table, kv_padding_size)):
        return None
    key, value = _joined(key), _joined(value)
    if key is None or value is None:
        return None
    operands = _layout_heads(query, key, value, input_layout, num_heads,
                             num_key_value_heads or num_heads)
    if operands is None:
        return None
    batch, keys = operands[0].dims[0], operands[1].dims[2]
    if attn_mask is not None and tuple(attn_mask.shape) not in \
            decode_mask_shapes(batch, keys):
        return None     # (the reference names the shapes it takes)
    mask = None if attn_mask is None else attn_mask.reshape(batch, 1, 1, keys)
    result = _attention(query, operands, input_layout, scale_value, mask=mask,
                        bias=pse_shift, kv_len=actual_seq_lengths)
    return None if result is None else result[0]


def _cache_heads(cache, heads: int, depth=None) -> Heads | None:
    """A (num_blocks, block_size, heads, D) cache (or heads * D last) read
    as (1, heads, num_blocks * block_size, D), its first ``depth``
    features only where given; None where it does not fit."""
    if not (cache.ndim == 4 and cache.shape[2] == heads
            or cache.ndim == 3 and heads and cache.shape[2] % heads == 0):
        return None
    rows = cache.shape[0] * cache.shape[1]
    return viewed_heads(cache, lambda view: view.reshape(rows, heads, -1)
                        .transpose(1, 0, 2)[None, ..., :depth])


def paged_attention(query, key_cache, value_cache=None, block_tables=None,
                    context_lens=None, antiquant_scale=None, antiquant_offset=None,
                    attn_mask=None, q_seq_lens=None, alibi_mask=None, head_num=1,
                    scale_value=1.0, kv_head_num=0, kv_cache_quant_mode=0,
                    mask_mode=0, mla_v_dim=0):
    """PagedAttention: each token's keys found through a row table made on
    the device from its blocks (a block id or context length out of range
    declines); quantisation and masks decline."""
    if any(x is not None for x in (antiquant_scale, antiquant_offset, attn_mask,
                                   q_seq_lens, alibi_mask)) \
            or kv_cache_quant_mode or mask_mode or block_tables is None \
            or context_lens is None or value_cache is None and mla_v_dim <= 0:
        return None
    tokens, heads = query.shape[0] if query.ndim else 0, kv_head_num or head_num
    if query.ndim not in (2, 3) or query.ndim == 3 and query.shape[1] != head_num \
            or block_tables.ndim != 2 or block_tables.shape[0] != tokens \
            or context_lens.shape != (tokens,) or context_lens.dtype.kind not in "iu" \
            or block_tables.dtype.kind not in "iu":
        return None
    q = viewed_heads(query, lambda view: view.reshape(tokens, head_num, 1, -1))
    k = _cache_heads(key_cache, heads)
    v = _cache_heads(key_cache, heads, mla_v_dim) if value_cache is None \
        else _cache_heads(value_cache, heads)
    if q is None or k is None or v is None \
            or value_cache is None and mla_v_dim > k.dims[3]:
        return None
    block_size = key_cache.shape[1]
    rows = device.empty((tokens, block_tables.shape[1] * block_size), np.int64)
    bad = device.zeros(1, np.int32)
    device.launch(paged_rows, rows.size, block_tables, context_lens, block_size,
                  key_cache.shape[0], rows, bad)
    if device.to_host(bad)[0]:
        return None
    out = device.empty((tokens, head_num, 1, v.dims[3]), compute_dtype(query.dtype))
    keys, values = (Heads(x.array, x.dims[:2] + (rows.shape[1], x.dims[3]), x.strides)
                    for x in (k, v))      # S2: the keys a row table reaches
    stats = attend(q, keys, values, viewed_heads(out, lambda view: view), scale_value,
                   kv_len=context_lens, rows=rows)
    if stats is None:
        return None
    return _rounded(out, query.dtype).reshape(
        (tokens, head_num * v.dims[3]) if query.ndim == 2
        else (tokens, head_num, v.dims[3]))


KERNELS = {"FlashAttentionScore": flash_attention_score,
           "PromptFlashAttention": prompt_flash_attention,
           "IncreFlashAttention": incre_flash_attention,
           "PagedAttention": paged_attention}
registry.declare_kernels("cuda", KERNELS)

_I64 = "int64[::1]"
# (name, kernel, argument types) for tools/check_ptx.py.
def _rows_signature(value: str, out: str) -> str:
    """attend_rows' argument types for q, k, v, bias of ``value`` and out
    and the scalars of ``out`` (the compute dtype)."""
    return (f"void({value}[::1], {value}[::1], {value}[::1], {out}[::1], {_I64}, {_I64},"
            f" {_I64}, {_I64}, {_I64}, {out}, {value}[::1], {_I64}, boolean,"
            f" boolean[::1], {_I64}, {_I64}, {_I64}, {_I64}, {_I64}, {_I64},"
            f" float32[:, ::1], float32[:, ::1], {out}, {out})")


PTX = [("attention rows, float32", attend_rows, _rows_signature("float32", "float32")),
       ("attention rows, float16", attend_rows, _rows_signature("float16", "float32")),
       ("paged rows, int32", paged_rows,
        "void(int32[:, ::1], int32[::1], int64, int64, int64[:, ::1], int32[::1])")]
