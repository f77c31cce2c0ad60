"""Slice."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("Slice", family="shape", dtypes=ALL,
          convert={"begin": args.ints, "size": args.ints}, no_kernel="copy")
def slice_(input, begin, size):
    """A contiguous block: y = input[b0:b0+s0, b1:b1+s1, ...].

    Arguments: input; begin (one start per axis, >= 0); size (one length
    per axis; -1 takes everything from begin to the end of the axis).
    begin + size must stay inside the input (MindSpore raises otherwise,
    and so does this). What ops.slice and tensor_split export. All dtypes.
    """
    if not len(begin) == len(size) == input.ndim:
        raise ValueError(f"Slice: begin {begin} and size {size} must have "
                         f"one entry per axis of {input.shape}")
    index = []
    for axis, (start, length) in enumerate(zip(begin, size)):
        dim = input.shape[axis]
        stop = dim if length == -1 else start + length
        if not 0 <= start <= stop <= dim:
            raise ValueError(f"Slice: begin {start}, size {length} out of "
                             f"range for axis {axis} of length {dim}")
        index.append(slice(start, stop))
    return input[tuple(index)].copy()
