"""NthElement."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS


@register("NthElement", family="reduction", dtypes=NUMBERS,
          convert={"n": args.scalar, "reverse": args.boolean}, no_kernel="native")
def nth_element(input, n, reverse=False):
    """The n-th smallest (reverse: largest) value along the last axis.

    y[...] = sort(input[..., :])[n] (0-based; reverse: the n-th of the
    descending order). Arguments: input (rank >= 1); n (int or 0-d int
    tensor, 0 <= n < input.shape[-1]: MindSpore 2.7.1 raises otherwise);
    reverse (bool attribute). Output: input.shape[:-1], input's dtype.
    """
    n = int(n)
    length = input.shape[-1] if input.ndim else 0
    if not 0 <= n < length:
        raise ValueError(f"NthElement: n must lie in [0, {length}) of the last "
                         f"axis of input {input.shape}, got {n}")
    place = length - 1 - n if reverse else n
    return np.partition(input, place, axis=-1)[..., place].copy()
