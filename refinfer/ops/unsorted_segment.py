"""UnsortedSegmentSum, UnsortedSegmentMax, UnsortedSegmentMin and
UnsortedSegmentProd: one reduction per segment id, from a table."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.indexing import highest, lowest, segment_reduce

_DOC = """{summary}

y[s, ...] = {formula} of input_x[j..., ...] over the j with segment_ids[j...]
= s, for s in [0, num_segments); negative ids are dropped, ids >=
num_segments are an error (MindSpore 2.7.1 CPU); an empty segment is
{empty}. Arguments: input_x; segment_ids (int tensor of input_x's leading
shape); num_segments (int). Output: (num_segments,) + input_x.shape[
segment_ids.ndim:], input_x's dtype.
"""


# name -> (ufunc, the empty segment's value for a dtype, summary, formula, empty)
_VARIANTS = {
    "UnsortedSegmentSum": (np.add, lambda dtype: 0, "Sums of the slices of input_x "
                           "that share a segment id.", "the sum", "0"),
    "UnsortedSegmentMax": (np.maximum, lowest, "Maxima of the slices of input_x "
                           "that share a segment id.", "the maximum",
                           "the dtype's lowest finite value (-FLT_MAX, INT_MIN)"),
    "UnsortedSegmentMin": (np.minimum, highest, "Minima of the slices of input_x "
                           "that share a segment id.", "the minimum",
                           "the dtype's largest finite value"),
    "UnsortedSegmentProd": (np.multiply, lambda dtype: 1, "Products of the slices of "
                            "input_x that share a segment id.", "the product", "1"),
}


def _make(name, combine, empty, summary, formula, empty_doc):
    def unsorted_segment(input_x, segment_ids, num_segments):
        return segment_reduce(name, combine, empty, input_x, segment_ids, num_segments)
    unsorted_segment.__name__ = unsorted_segment.__qualname__ = \
        "unsorted_segment_" + name[len("UnsortedSegment"):].lower()
    unsorted_segment.__doc__ = _DOC.format(summary=summary, formula=formula,
                                           empty=empty_doc)
    return register(name, family="reduction", dtypes=NUMBERS,
                    convert={"num_segments": args.scalar},
                    no_kernel="native")(unsorted_segment)


for _name, _spec in _VARIANTS.items():
    _make(_name, *_spec)
