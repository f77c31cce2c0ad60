"""ArgSort."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import NUMBERS
from ._ref.search import sort_along


@register("ArgSort", family="reduction", dtypes=NUMBERS,
          convert={"dim": args.scalar, "descending": args.boolean,
                   "stable": args.boolean},
          kernels={"numba": reduce.arg_sort})
def arg_sort(input, dim=-1, descending=False, stable=False):
    """The int64 indices that sort input along dim (mint.argsort).

    Arguments: input; dim=-1; descending=False; stable=False (always stable
    here). ops.argsort exports Sort and TupleGetItem instead. MindSpore
    2.7.1 has no CPU kernel for it.
    """
    return sort_along(input, dim, descending, np.int64)[1]
