"""ReduceProd."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.reduce import product, reduce_axes


@register("ReduceProd", family="reduction", dtypes=ALL,
          convert={"axis": args.axes, "keep_dims": args.boolean},
          kernels={"numba": reduce.reduce_prod})
def reduce_prod(x, axis=(), keep_dims=False):
    """Product over the given axes (P.ReduceProd).

    Arguments: x; axis=() (int, tuple or 1-D tensor; () means every axis);
    keep_dims=False. Output keeps x's dtype: integers wrap, a bool product
    is a logical and, float16 accumulates in float32. An empty product is 1.
    """
    return product(x, reduce_axes(axis, x.ndim), keep_dims)
