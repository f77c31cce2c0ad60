"""The ``cuda`` kernels of two LLM serving ops (declared in
:data:`KERNELS`):

- MoeGatingTopKSoftmax: one thread per row of experts: the softmax (max,
  then the sum of exp(x - max)), then the k largest probabilities picked
  one rank at a time, each the largest (probability, -expert) pair below
  the previous pick: the reference's stable descending order (equal
  probabilities by lower expert) with no scratch. A row holding NaN or
  an infinite maximum sets a flag, read back, and the kernel declines
  (the reference's NaN order is NumPy's sort's).
- ReshapeAndCache: each cache viewed as (num_blocks * block_size, row)
  rows, a copy of it with token t's row written at slot_mapping[t] by
  scatter.py's TensorScatterUpdate kernel (in token order: a later token
  on the same slot wins, as the reference; a slot out of range declines).
  MindSpore writes the caches in place; refinfer's op returns their new
  values and the graph builder points later reads of each cache at them
  (``registry`` ``mutates``), so the device plan needs no in-place write:
  the price is a copy of each cache per call, as the reference's.
"""
from __future__ import annotations

import math

import numpy as np

from refinfer import registry
from refinfer.ops._kernels.index import UPDATE
from refinfer.ops._ref.common import compute_dtype

from . import device
from .device import cuda, dmath
from .scatter import tensor_scatter

FLOATS = tuple(map(np.dtype, (np.float16, np.float32, np.float64)))


@device.jit
def top_k_softmax(x, finished, k, y, experts_out, rows_out, bad, zero):
    """Per row r of x (rows, E): y[r, :k] the k largest of softmax(x[r]),
    largest first (equal ones by lower expert), experts_out their experts
    (E where finished[r]; finished empty: none), rows_out[r, j] = j * rows
    + r; bad[0] = 1 where a row holds NaN or an infinite maximum; the
    math in zero's type (float16 read as float32)."""
    rows, experts = x.shape[0], x.shape[1]
    for r in range(cuda.grid(1), rows, cuda.gridsize(1)):
        best = zero + x[r, 0]
        for e in range(experts):
            if x[r, e] != x[r, e]:
                bad[0] = 1
            elif x[r, e] > best:
                best = zero + x[r, e]
        if best - best != 0:        # (inf or NaN: the reference's order differs)
            bad[0] = 1
        total = best - best
        for e in range(experts):
            total += dmath.exp(zero + x[r, e] - best)
        done = finished.size > 0 and finished[r] != 0
        # every probability is at most 1 <= total: the first pick passes
        last, last_expert = total, -1
        for rank in range(k):
            pick, picked = -1, total - total
            for e in range(experts):
                p = dmath.exp(zero + x[r, e] - best) / total
                below = p < last or p == last and e > last_expert
                if below and (pick < 0 or p > picked):
                    pick, picked = e, p
            y[r, rank] = picked
            experts_out[r, rank] = experts if done else pick
            rows_out[r, rank] = rank * rows + r
            last, last_expert = picked, pick


def moe_gating_top_k_softmax(x, finished=None, k=1):
    """MoeGatingTopKSoftmax's (y, expert_idx, row_idx) on the device
    (float16 computed in float32, as the reference); None for shapes the
    reference refuses, NaN or infinite rows."""
    k = int(k)
    experts = x.shape[x.ndim - 1] if x.ndim else 0
    lead = tuple(x.shape)[:-1]
    if x.dtype not in FLOATS or x.ndim not in (2, 3) or not 0 <= k <= experts \
            or finished is not None and tuple(finished.shape) != lead:
        return None
    rows = math.prod(lead)
    y = device.empty(lead + (k,), x.dtype)
    expert_idx, row_idx = (device.empty(lead + (k,), np.int32) for _ in range(2))
    if rows and experts:
        bad = device.zeros(1, np.int8)
        done = device.empty(0, np.bool_) if finished is None \
            else finished.reshape(rows)
        device.launch(top_k_softmax, rows, x.reshape(rows, experts), done, k,
                      y.reshape(rows, k), expert_idx.reshape(rows, k),
                      row_idx.reshape(rows, k), bad, compute_dtype(x.dtype).type(0))
        if device.to_host(bad)[0]:
            return None
    return y, expert_idx, row_idx


_write_rows = tensor_scatter(UPDATE)


def _write(cache, rows, slots):
    """A new cache (3-D or 4-D) with token t's row of ``rows`` at slot
    slots[t]; None where the shapes or dtypes do not fit or a slot is out
    of range."""
    if cache.ndim not in (3, 4) or rows.ndim < 2 or rows.dtype != cache.dtype:
        return None
    width = math.prod(tuple(cache.shape)[2:])
    capacity = cache.shape[0] * cache.shape[1]
    if rows.shape[rows.ndim - 1] != width or rows.size != slots.size * width:
        return None
    new = _write_rows(cache.reshape(capacity, width), slots.reshape(slots.size, 1),
                      rows.reshape(slots.size, width))
    return None if new is None else new.reshape(tuple(cache.shape))


def reshape_and_cache(key, value=None, key_cache=None, value_cache=None,
                      slot_mapping=None):
    """ReshapeAndCache's (new key_cache, new value_cache or None)."""
    if key_cache is None or slot_mapping is None or (value is None) != (
            value_cache is None):
        return None
    slots = slot_mapping.reshape(slot_mapping.size)
    new_keys = _write(key_cache, key, slots)
    new_values = None if value is None else _write(value_cache, value, slots)
    if new_keys is None or value is not None and new_values is None:
        return None
    return new_keys, new_values


KERNELS = {"MoeGatingTopKSoftmax": moe_gating_top_k_softmax,
           "ReshapeAndCache": reshape_and_cache}
registry.declare_kernels("cuda", KERNELS)

# (name, kernel, argument types) for tools/check_ptx.py.
PTX = [(f"top-k softmax, {name}", top_k_softmax,
        f"void({name}[:, ::1], boolean[::1], int64, {name}[:, ::1], int32[:, ::1],"
        " int32[:, ::1], int8[::1], float32)") for name in ("float32", "float16")]
