"""ReduceProd."""
from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.reduce import product, reduce_axes


@register("ReduceProd", family="reduction", dtypes=ALL,
          convert={"axis": args.axes, "keep_dims": args.boolean})
def reduce_prod(x, axis=(), keep_dims=False):
    """Product over the given axes (P.ReduceProd).

    Arguments: x; axis=() (int, tuple or 1-D tensor; () means every axis);
    keep_dims=False. Output keeps x's dtype: integers wrap, a bool product
    is a logical and, float16 accumulates in float32. An empty product is 1.
    """
    return product(x, reduce_axes(axis, x.ndim), keep_dims)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("ReduceProd", "numba")
def reduce_prod_numba(x, axis=(), keep_dims=False):
    """ReduceProd over any axes with the reduction runner; bool (np.all)
    and other dtypes through the reference."""
    return _fast_reduce.or_reference(_fast_reduce.reduce(_fast_reduce.PROD, x, axis, keep_dims),
                                     reduce_prod, x, axis, keep_dims)
