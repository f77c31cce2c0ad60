"""CumsumExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import ALL
from ._ref.reduce import as_sum_dtype
from ._ref.search import cumulative


@register("CumsumExt", family="reduction", dtypes=ALL,
          convert={"dim": args.scalar, "dtype": args.optional_dtype},
          kernels={"numba": reduce.cumsum_ext})
def cumsum_ext(input, dim, dtype=None):
    """Cumulative sum along one dim (mint.cumsum).

    Arguments: input; dim; dtype=None (TypeId): when given, input is cast
    to it first; without it, bool and integer inputs sum in int64 (as
    SumExt). MindSpore 2.7.1 has no CPU kernel for it.
    """
    return cumulative(np.cumsum, as_sum_dtype(input, dtype), dim, False, False, identity=0)
