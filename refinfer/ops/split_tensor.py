"""SplitTensor."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.shape import axis_length, even_sizes, split_sizes


@register("SplitTensor", "SplitTensorView", family="shape", dtypes=ALL,
          convert={"split_size": args.scalar, "dim": args.scalar},
          no_kernel="copy")
def split_tensor(input, split_size, dim=0):
    """Split along dim into pieces of split_size elements; returns a tuple.

    The last piece is shorter when split_size does not divide the length.

    Arguments: input; split_size (int > 0); dim=0 (negative allowed).
    What mint.split with an int exports.
    An empty axis gives one empty piece. All dtypes.
    SplitTensorView (the view form mint exports) gives the same pieces.
    """
    split_size = int(split_size)
    if split_size <= 0:
        raise ValueError(f"SplitTensor: split_size must be > 0, got "
                         f"{split_size}")
    return split_sizes(input, even_sizes(axis_length(input, dim)[1], split_size), dim)
