"""UnsortedSegmentSum."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import INTS, NUMBERS, require_dtype


@register("UnsortedSegmentSum", family="reduction", dtypes=NUMBERS,
          convert={"num_segments": args.scalar}, no_kernel="native")
def unsorted_segment_sum(input_x, segment_ids, num_segments):
    """Sums of the slices of input_x that share a segment id.

    y[s, ...] = sum of input_x[j..., ...] over the j with segment_ids[j...]
    = s, for s in [0, num_segments); negative ids are dropped, ids >=
    num_segments are an error (MindSpore 2.7.1 CPU); empty segments are 0.
    Arguments: input_x; segment_ids (int tensor of input_x's leading shape);
    num_segments (int). Output: (num_segments,) + input_x.shape[
    segment_ids.ndim:], input_x's dtype.
    """
    require_dtype("UnsortedSegmentSum", "segment_ids", segment_ids, INTS)
    ids = np.asarray(segment_ids)
    if input_x.shape[:ids.ndim] != ids.shape:
        raise ValueError(f"UnsortedSegmentSum: segment_ids shape {ids.shape} must "
                         f"lead input_x's shape {input_x.shape}")
    count = int(num_segments)
    rows = input_x.reshape((-1,) + input_x.shape[ids.ndim:])
    ids = ids.reshape(-1)
    if ids.size and ids.max() >= count:
        raise ValueError(f"UnsortedSegmentSum: segment id {ids.max()} out of range "
                         f"[0, {count}) of num_segments")
    kept = ids >= 0
    out = np.zeros((count,) + rows.shape[1:], input_x.dtype)
    np.add.at(out, ids[kept], rows[kept])
    return out
