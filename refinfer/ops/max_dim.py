"""MaxDim."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.search import extreme


@register("MaxDim", family="reduction", dtypes=ALL,
          convert={"dim": args.scalar, "keepdim": args.boolean},
          kernels={"numba": reduce.value_and_index(largest=True)})
def max_dim(input, dim, keepdim=False):
    """The largest value along one dim and its index: (values, indices).

    What mint.max(x, dim) exports (note the order, the reverse of
    ArgMaxWithValue's). Arguments: input; dim; keepdim=False. Indices are
    int64; ties and NaN as in Argmax.
    """
    return extreme(input, dim, keepdim, largest=True)
