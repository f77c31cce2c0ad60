"""SegmentSum, SegmentMax, SegmentMin, SegmentMean and SegmentProd: one
reduction per run of a sorted segment id, from a table."""
import numpy as np

from refinfer.registry import register

from ._ref.common import INTS, NUMBERS, require_dtype
from ._ref.indexing import highest, lowest, segment_reduce

_DOC = """{summary}

y[s, ...] = {formula} of input_x[j, ...] over the j with segment_ids[j] = s,
for s in [0, segment_ids[-1] + 1); a segment no id names is {empty}.
Arguments: input_x; segment_ids (1-D int tensor of length input_x.shape[0],
sorted ascending, non-negative: MindSpore 2.7.1 CPU raises otherwise).
Output: (segment_ids[-1] + 1,) + input_x.shape[1:], input_x's dtype.
"""


def _mean(sums, counts):
    """Sums over counts (an empty segment stays 0); integers truncate
    toward zero, as C's division on MindSpore's CPU."""
    shaped = np.maximum(counts, 1).reshape((-1,) + (1,) * (sums.ndim - 1))
    return (sums / shaped).astype(sums.dtype)


# name -> (ufunc, the per-segment result from (reduced, counts), summary,
# formula, empty)
_VARIANTS = {
    "SegmentSum": (np.add, None, "Sums of the runs of rows that share a segment id.",
                   "the sum", "0"),
    "SegmentMax": (np.maximum, None, "Maxima of the runs of rows that share a "
                   "segment id.", "the maximum", "0 (not the dtype's lowest value)"),
    "SegmentMin": (np.minimum, None, "Minima of the runs of rows that share a "
                   "segment id.", "the minimum", "0 (not the dtype's largest value)"),
    "SegmentMean": (np.add, _mean, "Means of the runs of rows that share a segment "
                    "id.", "the mean (integers truncate toward zero)", "0"),
    "SegmentProd": (np.multiply, None, "Products of the runs of rows that share a "
                    "segment id.", "the product", "1"),
}


# ufunc -> the value a segment's reduction starts from, for a dtype
_START = {np.add: lambda dtype: 0, np.multiply: lambda dtype: 1,
          np.maximum: lowest, np.minimum: highest}


def check_sorted_ids(name, input_x, segment_ids) -> np.ndarray:
    """segment_ids as int64 once checked: 1-D integers, one per row of
    input_x, ascending and non-negative."""
    require_dtype(name, "segment_ids", segment_ids, INTS)
    ids = np.asarray(segment_ids).astype(np.int64)
    if ids.ndim != 1 or input_x.ndim == 0 or ids.shape[0] != input_x.shape[0]:
        raise ValueError(f"{name}: segment_ids must be 1-D with one id per row of "
                         f"input_x, got shape {ids.shape} for input_x of shape "
                         f"{input_x.shape}")
    if ids.size and ids[0] < 0:
        raise ValueError(f"{name}: segment ids must be non-negative, got {ids[0]}")
    if np.any(ids[1:] < ids[:-1]):
        raise ValueError(f"{name}: segment_ids must be sorted ascending, got "
                         f"{ids[:-1][ids[1:] < ids[:-1]][0]} before a smaller id")
    return ids


def _make(name, combine, finish, summary, formula, empty_doc):
    def segment(input_x, segment_ids):
        ids = check_sorted_ids(name, input_x, segment_ids)
        count = int(ids[-1]) + 1 if ids.size else 0
        counts = np.bincount(ids, minlength=count)
        out = segment_reduce(name, combine, _START[combine], input_x, ids, count)
        out[counts == 0] = 1 if combine is np.multiply else 0
        return out if finish is None else finish(out, counts)
    segment.__name__ = segment.__qualname__ = "segment_" + name[len("Segment"):].lower()
    segment.__doc__ = _DOC.format(summary=summary, formula=formula, empty=empty_doc)
    return register(name, family="reduction", dtypes=NUMBERS,
                    no_kernel="native")(segment)


for _name, _spec in _VARIANTS.items():
    _make(_name, *_spec)
