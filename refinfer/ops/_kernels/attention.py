"""Scaled dot-product attention as one step (the fast plan's fused
attention, passes/attention.py)::

    out = softmax(Q K^T * scale + mask) V        per head

Q, K and V are read through the views of the Transposes that split the
heads, and the output is written through the view of the Transpose that
joins them: no copies. A few heads at a time, each thread takes its
heads through the whole chain: their scores and probabilities (each at
most SCORES_FLOATS) stay in L2 between the two products, which BLAS
computes (np.matmul, a call per block of heads). Separately, the chain
wrote and read back the scores three times (scale, mask, softmax) and
the context once more (its Transpose): GPT-2's 12 x 128 x 128 attention,
one thread, 1.18 ms as five steps against 0.82 fused.
"""
from __future__ import annotations

import numpy as np

from refinfer.threads import GEMM_WORK, min_items, parallel_for

from . import program
from .norm import masked_softmax_rows

# Floats of the scores a thread computes at once (and of their
# probabilities: 2 x 128 KB in float32, in L2 with the heads' Q, K, V):
# a bound on the scratch, one head at a time from 128 x 256 scores on.
# GPT-2's heads (128 x 128 scores), one thread: 0.81-0.83 ms in blocks of
# 1 to 12 heads alike.
SCORES_FLOATS = 1 << 15


def attention(q, k, v, mask, q_dims, k_dims, v_dims, out_dims, transpose_b,
              scale, axis):
    """softmax(Q K^T * scale + mask, axis) V, Q = q permuted by q_dims
    (None: as it is), K likewise (K^T: K transposed where ``transpose_b``,
    else K itself) and V; the result permuted by ``out_dims`` (None: as it
    is). Q (B, H, Sq, D), K^T (B, H, D, Sk), V (B, H, Sk, Dv), float32 or
    float64 alike; mask None or of their dtype, broadcasting to the scores
    (B, H, Sq, Sk); ``axis`` the last. None where the operands do not fit
    (the caller falls back to the nodes)."""
    operands = [_permuted(x, dims) for x, dims in
                ((q, q_dims), (k, k_dims), (v, v_dims))]
    if any(x is None for x in operands) \
            or program.float_operands(q, k, v) is None \
            or not isinstance(axis, tuple) or axis not in ((-1,), (3,)):
        return None
    queries, keys, values = operands
    if transpose_b:
        keys = keys.swapaxes(-1, -2)
    heads, (n_queries, depth), (_, n_keys) = queries.shape[:2], \
        queries.shape[2:], keys.shape[2:]
    if keys.shape != heads + (depth, n_keys) \
            or values.shape[:3] != heads + (n_keys,) or not values.size \
            or not queries.size or not n_keys:
        return None
    rows = _mask_rows(mask, q.dtype, heads + (n_queries, n_keys))
    if rows is None:
        return None
    shape = heads + (n_queries, values.shape[3])
    if out_dims is None:
        out = context = np.empty(shape, q.dtype)
    else:
        out = np.empty(tuple(shape[d] for d in out_dims), q.dtype)
        context = out.transpose(np.argsort(out_dims))
    run = _Heads(queries, keys, values, rows, context, q.dtype.type(scale))
    parallel_for(heads[0] * heads[1], run, grain=min_items(
        n_queries * n_keys * (depth + values.shape[3]), GEMM_WORK))
    return out


def _permuted(x, dims):
    """x permuted by ``dims`` (a view), None: as it is; None where x is
    not a 4-D array or dims do not fit it."""
    if not isinstance(x, np.ndarray) or x.ndim != 4 \
            or (dims is not None and len(dims) != 4):
        return None
    return x if dims is None else x.transpose(dims)


def _mask_rows(mask, dtype, scores):
    """The mask as :func:`norm.masked_softmax_rows` reads it: (G, M, Sk)
    C-contiguous, G = 1 where it is alike for every head (else B * H), M =
    1 where alike for every query (else Sq); zeros (1, 1, Sk) for no mask.
    None where it does not broadcast to ``scores`` (B, H, Sq, Sk) or has
    another dtype."""
    if mask is None:
        return np.zeros((1, 1, scores[3]), dtype)
    if not isinstance(mask, np.ndarray) or mask.dtype != dtype \
            or mask.ndim > 4:
        return None
    full = (1,) * (4 - mask.ndim) + mask.shape
    if any(m not in (1, s) for m, s in zip(full, scores)):
        return None
    per_head = full[0] * full[1] > 1
    kept = (scores[:2] if per_head else (1, 1)) + (full[2], scores[3])
    rows = np.broadcast_to(mask.reshape(full), kept)
    return np.ascontiguousarray(rows).reshape((-1,) + kept[2:])


class _Heads:
    """The attention of heads g0..g1 (g = b * H + h), as parallel_for
    calls it: a block of heads at a time, within one batch item."""

    def __init__(self, queries, keys, values, mask, context, scale):
        self.queries, self.keys, self.values = queries, keys, values
        self.mask, self.context, self.scale = mask, context, scale

    def __call__(self, lo: int, hi: int) -> None:
        count, n_queries, n_keys = self.queries.shape[1], \
            self.queries.shape[2], self.keys.shape[3]
        block = max(1, SCORES_FLOATS // (n_queries * n_keys))
        dtype = self.queries.dtype
        floats = (min(block, hi - lo) * n_queries, n_keys)
        scores = program.scratch("attention_scores", floats, dtype)
        probabilities = program.scratch("attention_probabilities", floats,
                                        dtype)
        g = lo
        while g < hi:
            b, h = divmod(g, count)
            n = min(block, hi - g, count - h)
            s, p = scores[:n * n_queries], probabilities[:n * n_queries]
            heads = slice(h, h + n)
            np.matmul(self.queries[b, heads], self.keys[b, heads],
                      out=s.reshape(n, n_queries, n_keys))
            masked_softmax_rows(s, p, self.scale, self.mask, g, n_queries)
            np.matmul(p.reshape(n, n_queries, n_keys), self.values[b, heads],
                      out=self.context[b, heads])
            g += n
