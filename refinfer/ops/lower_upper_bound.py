"""LowerBound and UpperBound."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS


def _bounds(name, side, sorted_x, values, out_type):
    """searchsorted(row of sorted_x, row of values, side) row by row."""
    if sorted_x.ndim != 2 or values.ndim != 2 or sorted_x.shape[0] != values.shape[0]:
        raise ValueError(f"{name}: sorted_x and values must be 2-D with the same "
                         f"rows, got {sorted_x.shape} and {values.shape}")
    out = np.empty(values.shape, out_type)
    for row, (seq, queries) in enumerate(zip(sorted_x, values)):
        out[row] = np.searchsorted(seq, queries, side=side)
    return out


@register("LowerBound", family="reduction", dtypes=NUMBERS,
          convert={"out_type": args.dtype}, no_kernel="native")
def lower_bound(sorted_x, values, out_type=np.dtype(np.int32)):
    """Per row, the first index whose entry is >= each value.

    y[r, j] = min{i : sorted_x[r, i] >= values[r, j]} (the row length when
    none). Arguments: sorted_x (2-D, rows sorted ascending); values (2-D,
    the same rows); out_type=int32 (int32 or int64 attribute).
    """
    return _bounds("LowerBound", "left", sorted_x, values, out_type)


@register("UpperBound", family="reduction", dtypes=NUMBERS,
          convert={"out_type": args.dtype}, no_kernel="native")
def upper_bound(sorted_x, values, out_type=np.dtype(np.int32)):
    """Per row, the first index whose entry is > each value.

    y[r, j] = min{i : sorted_x[r, i] > values[r, j]} (the row length when
    none). Arguments as LowerBound.
    """
    return _bounds("UpperBound", "right", sorted_x, values, out_type)
