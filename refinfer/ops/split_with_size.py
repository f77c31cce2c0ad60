"""SplitWithSize."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("SplitWithSize", family="shape", dtypes=ALL,
          convert={"split_size": args.ints, "dim": args.scalar},
          no_kernel="copy")
def split_with_size(input, split_size, dim=0):
    """Split along dim into pieces of the given lengths; returns a tuple.

    y[k] = input[..., o_k:o_k + split_size[k], ...] with o_k the sum of the
    earlier lengths.

    Arguments: input; split_size (tuple of lengths >= 0 adding up to the
    axis length); dim=0 (negative allowed). What mint.split with a list
    exports. All dtypes.
    """
    dim = int(dim)
    length = input.shape[dim]
    if sum(split_size) != length or min(split_size, default=0) < 0:
        raise ValueError(f"SplitWithSize: sizes {split_size} do not add up "
                         f"to axis {dim} of length {length}")
    cuts = np.cumsum(split_size)[:-1]
    return tuple(part.copy() for part in np.split(input, cuts, axis=dim))
