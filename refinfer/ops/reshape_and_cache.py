"""ReshapeAndCache (Ascend)."""
import numpy as np

from refinfer.registry import register

OP = "ReshapeAndCache"


@register(OP, family="nn", dtypes=("float16", "float32", "float64", "int8"),
          no_kernel="oracle", mutates=("key_cache", "value_cache"))
def reshape_and_cache(key, value=None, key_cache=None, value_cache=None,
                      slot_mapping=None):
    """Write each token's key and value into a block-paged cache (Ascend
    only; a CPU oracle here)::

        block, offset = divmod(slot_mapping[t], block_size)
        key_cache[block, offset] = key[t]       (value_cache likewise)

    key, value (num_tokens, hidden) or (batch, seq, hidden), hidden = heads *
    head_dim: MindSpore's shape inference counts tokens over every axis but
    the last (its documentation's (num_tokens, heads, head_dim) is refused
    at export). key_cache, value_cache (num_blocks, block_size, heads,
    head_dim) or (num_blocks, block_size, hidden); slot_mapping
    (num_tokens,) int: block_id * block_size + offset_in_block. value and value_cache are optional together. A slot
    must lie in [0, num_blocks * block_size): neither MindSpore nor Ascend's
    documentation states a rule for others. Two tokens on one slot: the
    later one is kept (Ascend's parallel kernel does not say).

    MindSpore writes both caches in place and returns a tensor shaped like
    key that models only pass to Depend, for ordering. Ours returns
    (new key_cache, new value_cache), value_cache None when absent: the
    graph builder points later reads of each cache at its element
    (``mutates``).
    """
    if key_cache is None or slot_mapping is None:
        raise ValueError(f"{OP}: key_cache and slot_mapping are required")
    if (value is None) != (value_cache is None):
        raise ValueError(f"{OP}: value and value_cache go together, got "
                         f"value {_shape(value)} and value_cache {_shape(value_cache)}")
    slots = np.asarray(slot_mapping).reshape(-1)
    new_keys = _write(key_cache, key, slots, "key")
    new_values = None if value is None else _write(value_cache, value, slots, "value")
    return new_keys, new_values


def _write(cache, rows, slots, name):
    """A copy of ``cache`` with token t's row of ``rows`` at slot slots[t]."""
    if cache.ndim not in (3, 4):
        raise ValueError(f"{OP}: {name}_cache must be (num_blocks, block_size, heads, "
                         f"head_dim) or (..., heads * head_dim), got "
                         f"{list(cache.shape)}")
    row = int(np.prod(cache.shape[2:]))
    if rows.ndim < 2 or rows.shape[-1] != row or rows.size != len(slots) * row:
        raise ValueError(f"{OP}: {name} must be ({len(slots)} tokens (slot_mapping's "
                         f"length), {row}) or (batch, seq, {row}) for {name}_cache "
                         f"{list(cache.shape)}, got {list(rows.shape)}")
    capacity = cache.shape[0] * cache.shape[1]
    bad = slots[(slots < 0) | (slots >= capacity)]
    if bad.size:
        raise ValueError(f"{OP}: slot_mapping must lie in [0, {capacity}) (num_blocks "
                         f"* block_size), got {bad[:8].tolist()}")
    new = cache.copy()
    new.reshape(capacity, row)[slots] = rows.reshape(len(slots), row)
    return new


def _shape(array):
    return "None" if array is None else list(array.shape)
