"""TopkExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import NUMBERS
from ._ref.search import top_k


@register("TopkExt", family="reduction", dtypes=NUMBERS,
          convert={"k": args.scalar, "dim": args.scalar,
                   "largest": args.boolean, "sorted": args.boolean},
          kernels={"numba": reduce.topk_ext})
def topk_ext(input, k, dim=-1, largest=True, sorted=True):
    """The k largest (or smallest) values along dim and their int64 indices.

    What mint.topk exports. Arguments: input; k; dim=-1; largest=True;
    sorted=True (the result is always sorted here). Ties in index order.
    MindSpore 2.7.1 has no CPU kernel for it.
    """
    return top_k(input, k, dim, largest, np.int64)
