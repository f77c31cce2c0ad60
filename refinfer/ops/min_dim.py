"""MinDim."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.search import extreme


@register("MinDim", family="reduction", dtypes=ALL,
          convert={"dim": args.scalar, "keepdim": args.boolean})
def min_dim(input, dim, keepdim=False):
    """The smallest value along one dim and its index: (values, indices).

    What mint.min(x, dim) exports. Arguments: input; dim; keepdim=False.
    Indices are int64; ties and NaN as in Argmin.
    """
    return extreme(input, dim, keepdim, largest=False)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("MinDim", "numba")
def min_dim_numba(input, dim, keepdim=False):
    """MinDim with the arg-search runner; other dtypes through the
    reference."""
    return _fast_reduce.or_reference(_fast_reduce.arg_search(input, dim, keepdim, largest=False),
                                     min_dim, input, dim, keepdim)
