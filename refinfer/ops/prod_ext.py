"""ProdExt."""
from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.reduce import as_sum_dtype, product, reduce_axes


@register("ProdExt", family="reduction", dtypes=ALL,
          convert={"dim": args.axes, "keepdim": args.boolean,
                   "dtype": args.optional_dtype},
          kernels={"numba": reduce.prod_ext})
def prod_ext(input, dim=None, keepdim=False, dtype=None):
    """Product over one dim or every element (ops.prod, mint.prod).

    Arguments: input; dim=None (None: every element, else one int);
    keepdim=False; dtype=None (TypeId): when given, input is cast to it
    first. Without dtype, bool and integer inputs multiply in int64 (as
    SumExt); floats keep their dtype (float16 accumulates in float32).
    """
    input = as_sum_dtype(input, dtype)
    return product(input, reduce_axes(dim, input.ndim), keepdim)
