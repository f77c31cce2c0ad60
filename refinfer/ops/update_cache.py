"""UpdateCache."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL, INTS, require_dtype


@register("UpdateCache", family="shape", dtypes=ALL, no_kernel="vectorised",
          convert={"max_num": args.integer}, mutates="input_x")
def update_cache(input_x, indices, updates, max_num):
    """Writes rows of an embedding cache, skipping ids outside [0, max_num).

        input_x[indices[i]] = updates[i]    where 0 <= indices[i] < max_num

    Like ScatterUpdate on rows (the last repeat wins), except that ids out
    of range are skipped, not refused. Arguments (classic PRIMITIVE):
    input_x (M, D) (Parameter or Tensor); indices (N,) int; updates (N, D);
    max_num (0-d int). MindSpore's CPU kernel copies updates.shape[1]
    elements per id, so for other shapes (indices 2-D, rows of several
    axes) it writes flat runs of that length, at id * L in input_x from
    i * L in updates, i over indices flattened; followed here.
    MindSpore writes input_x in place and returns a [1] tensor of no use;
    ours returns the new input_x, which later reads of input_x see
    (``mutates``: ``Depend(x, update)``, or a ``Load`` after it).
    """
    if updates.ndim < 2:
        raise ValueError(f"UpdateCache: updates must be at least 2-D, got shape "
                         f"{list(updates.shape)}")
    require_dtype("UpdateCache", "indices", indices, INTS)
    ids = np.asarray(indices).reshape(-1)
    run = updates.shape[1]          # MindSpore's kernel: elements per id
    if len(ids) * run > updates.size:
        raise ValueError(f"UpdateCache: updates {list(updates.shape)} hold fewer than "
                         f"{len(ids)} ids (indices {list(np.shape(indices))}) of "
                         f"{run} elements")
    kept = np.flatnonzero((ids >= 0) & (ids < max_num))
    past = ids[kept][(ids[kept] + 1) * run > input_x.size]
    if past.size:       # MindSpore would write past the cache's end
        raise ValueError(f"UpdateCache: max_num {max_num} reaches past input_x "
                         f"{list(input_x.shape)}: ids {past[:8].tolist()}")
    new = input_x.copy()
    step = np.arange(run)
    new.reshape(-1)[ids[kept, None] * run + step] = \
        updates.reshape(-1)[kept[:, None] * run + step]
    return new
