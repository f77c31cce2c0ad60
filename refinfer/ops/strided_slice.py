"""StridedSlice."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL, as_result


@register("StridedSlice", family="shape", dtypes=ALL,
          convert={"begin": args.ints, "end": args.ints, "strides": args.ints,
                   "begin_mask": args.integer, "end_mask": args.integer,
                   "ellipsis_mask": args.integer, "new_axis_mask": args.integer,
                   "shrink_axis_mask": args.integer}, no_kernel="view")
def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0,
                  ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
    """TensorFlow-style strided slicing x[b0:e0:s0, b1:e1:s1, ...] with masks.

    What tensor indexing like ``y[:, :6]`` exports.

    Entry i of begin/end/strides (equal lengths) is the i-th item of the
    index; bit i of each mask changes that item:
    - ellipsis_mask: the item is ``...`` (at most one bit; wins over the
      other masks);
    - new_axis_mask: the item is ``None`` (a new length-1 axis; wins over
      shrink);
    - shrink_axis_mask: the item is the integer begin[i] (axis removed;
      stride must be positive, begin in range);
    - begin_mask / end_mask: begin[i] / end[i] is ignored (slice from the
      start / to the end, respecting the stride's sign).
    Axes after the last item are taken whole; mask bits beyond the items are
    ignored; out-of-range begin/end clamp as in Python.

    MindSpore 2.7.1 quirk kept here: a begin_mask bit on a shrink axis makes
    the index 0 (TensorFlow would use begin[i]).
    """
    if not len(begin) == len(end) == len(strides):
        raise ValueError("StridedSlice: begin, end and strides must have "
                         "equal lengths")
    if bin(ellipsis_mask & ((1 << len(begin)) - 1)).count("1") > 1:
        raise ValueError("StridedSlice: only one ellipsis is allowed")
    index = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ellipsis_mask & bit:
            index.append(Ellipsis)
        elif new_axis_mask & bit:
            index.append(None)
        elif shrink_axis_mask & bit:
            if s <= 0:
                raise ValueError("StridedSlice: a shrunk axis needs a "
                                 f"positive stride, got {s}")
            index.append(0 if begin_mask & bit else b)
        else:
            index.append(slice(None if begin_mask & bit else b,
                               None if end_mask & bit else e, s))
    sliced = sum(item is not None and item is not Ellipsis for item in index)
    if sliced > input_x.ndim:
        raise ValueError(f"StridedSlice: {sliced} sliced axes for an input of "
                         f"rank {input_x.ndim}")
    try:
        return as_result(input_x[tuple(index)])
    except IndexError as exc:   # a shrunk axis's index past its end
        raise ValueError(f"StridedSlice: {exc} (begin {tuple(begin)}, end "
                         f"{tuple(end)}, strides {tuple(strides)})") from None
