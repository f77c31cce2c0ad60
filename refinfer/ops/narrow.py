"""Narrow."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.shape import axis_length


@register("Narrow", family="shape", dtypes=ALL,
          convert={"dim": args.scalar, "start": args.scalar,
                   "length": args.scalar}, no_kernel="copy")
def narrow(input, dim, start, length):
    """``length`` consecutive entries along dim from start (mint.narrow).

    y = input[..., start:start + length, ...]. Arguments: input; dim
    (negative allowed); start (negative counts from the end); length >= 0,
    start + length must fit the axis (raises otherwise). MindSpore 2.7.1
    cannot run it on CPU. All dtypes.
    """
    if input.ndim == 0:
        raise ValueError("Narrow: input must have rank >= 1, got a 0-d tensor")
    dim, size = axis_length(input, dim)     # (out of range: a clear error)
    start, length = int(start), int(length)
    if start < 0:
        start += size
    if not (0 <= start <= size and 0 <= length <= size - start):
        raise ValueError(f"Narrow: start {start}, length {length} out of "
                         f"range for axis {dim} of length {size}")
    index = (slice(None),) * dim + (slice(start, start + length),)
    return input[index].copy()
