"""SelectExtView."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.search import one_axis


@register("SelectExtView", family="shape", dtypes=ALL,
          convert={"dim": args.scalar, "index": args.scalar}, no_kernel="copy")
def select_ext_view(input, dim, index):
    """Take one index along dim, removing that axis (mint.select).

    y = input.take(index, axis=dim). Arguments: input (rank >= 1); dim,
    index (ints, negative allowed; out of range raises). A copy here;
    MindSpore returns a view and cannot run it on CPU (2.7.1). All dtypes.
    """
    if input.ndim == 0:
        raise ValueError("SelectExtView: input must have rank >= 1, got a 0-d "
                         "tensor")
    dim, index = one_axis(dim, input.ndim), int(index)
    length = input.shape[dim]
    if not -length <= index < length:
        raise ValueError(f"SelectExtView: index {index} out of range for "
                         f"axis {dim} of length {length}")
    return input.take(index, axis=dim)
