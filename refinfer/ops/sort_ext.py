"""SortExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import NUMBERS
from ._ref.search import sort_along


@register("SortExt", family="reduction", dtypes=NUMBERS,
          convert={"dim": args.scalar, "descending": args.boolean,
                   "stable": args.boolean},
          kernels={"numba": reduce.sort_ext})
def sort_ext(input, dim=-1, descending=False, stable=False):
    """Sort along one dim (mint.sort): (values, int64 indices).

    Arguments: input; dim=-1; descending=False; stable=False (the sort is
    always stable here). MindSpore 2.7.1 has no CPU kernel for it.
    """
    return sort_along(input, dim, descending, np.int64)
