"""SearchSorted."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import NUMBERS


@register("SearchSorted", family="reduction", dtypes=NUMBERS,
          convert={"dtype": args.dtype, "right": args.boolean},
          kernels={"numba": reduce.search_sorted})
def search_sorted(sorted_sequence, values, sorter=None, dtype=args.dtype(35),
                  right=False):
    """Insertion points of values into sorted rows (ops.searchsorted).

    Arguments: sorted_sequence (sorted along its last axis; 1-D, or with
    the leading dims of values); values; sorter=None (indices that sort
    sorted_sequence); dtype=int64 (TypeId); right=False: the first index
    with sequence[i] >= v, right=True: the first with sequence[i] > v.
    """
    side = "right" if right else "left"
    seq = sorted_sequence
    if seq.ndim == 0:
        raise ValueError("SearchSorted: sorted_sequence must have rank >= 1, "
                         "got a 0-d tensor")
    if sorter is not None:
        seq = np.take_along_axis(seq, np.asarray(sorter, dtype=np.int64), axis=-1)
    if seq.ndim == 1:
        return np.searchsorted(seq, values, side=side).astype(dtype)
    rows = seq.reshape(-1, seq.shape[-1])
    queries = values.reshape(rows.shape[0], -1)
    out = np.stack([np.searchsorted(r, q, side=side) for r, q in zip(rows, queries)])
    return out.reshape(values.shape).astype(dtype)
