"""TopK."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import NUMBERS
from ._ref.search import top_k as select_top


@register("TopK", family="reduction", dtypes=NUMBERS,
          convert={"k": args.scalar, "sorted": args.boolean},
          kernels={"numba": reduce.top_k})
def top_k(input, k, sorted=True):
    """The k largest values along the last axis and their int32 indices.

    Arguments: input; k (node input); sorted=True (attribute). Values come
    in descending order, equal values in index order; MindSpore 2.7.1's CPU
    kernel orders ties (and everything, when sorted=False) its own way, so
    only tie-free inputs compare exactly. ops.topk exports it for other
    dims and largest=False with Transpose and Neg around it.
    """
    return select_top(input, k, -1, True, np.int32)
