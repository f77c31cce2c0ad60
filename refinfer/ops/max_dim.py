"""MaxDim."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.search import extreme


@register("MaxDim", family="reduction", dtypes=ALL,
          convert={"dim": args.scalar, "keepdim": args.boolean})
def max_dim(input, dim, keepdim=False):
    """The largest value along one dim and its index: (values, indices).

    What mint.max(x, dim) exports (note the order, the reverse of
    ArgMaxWithValue's). Arguments: input; dim; keepdim=False. Indices are
    int64; ties and NaN as in Argmax.
    """
    return extreme(input, dim, keepdim, largest=True)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("MaxDim", "numba")
def max_dim_numba(input, dim, keepdim=False):
    """MaxDim with the arg-search runner; other dtypes through the
    reference."""
    return _fast_reduce.or_reference(_fast_reduce.arg_search(input, dim, keepdim, largest=True),
                                     max_dim, input, dim, keepdim)
