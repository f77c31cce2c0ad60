"""SplitWithSize."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.shape import split_sizes


@register("SplitWithSize", "SplitWithSizeView", family="shape", dtypes=ALL,
          convert={"split_size": args.ints, "dim": args.scalar},
          no_kernel="copy")
def split_with_size(input, split_size, dim=0):
    """Split along dim into pieces of the given lengths; returns a tuple.

    y[k] = input[..., o_k:o_k + split_size[k], ...] with o_k the sum of the
    earlier lengths.

    Arguments: input; split_size (tuple of lengths >= 0 adding up to the
    axis length); dim=0 (negative allowed). What mint.split with a list
    exports. All dtypes.
    SplitWithSizeView (the view form mint exports) gives the same pieces.
    """
    return split_sizes(input, split_size, dim)
