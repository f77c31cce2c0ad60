"""MinDim."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.search import extreme


@register("MinDim", family="reduction", dtypes=ALL,
          convert={"dim": args.scalar, "keepdim": args.boolean},
          kernels={"numba": reduce.value_and_index(largest=False)})
def min_dim(input, dim, keepdim=False):
    """The smallest value along one dim and its index: (values, indices).

    What mint.min(x, dim) exports. Arguments: input; dim; keepdim=False.
    Indices are int64; ties and NaN as in Argmin.
    """
    return extreme(input, dim, keepdim, largest=False)
