"""TopK."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.search import top_k as select_top


@register("TopK", family="reduction", dtypes=NUMBERS,
          convert={"k": args.scalar, "sorted": args.boolean})
def top_k(input, k, sorted=True):
    """The k largest values along the last axis and their int32 indices.

    Arguments: input; k (node input); sorted=True (attribute). Values come
    in descending order, equal values in index order; MindSpore 2.7.1's CPU
    kernel orders ties (and everything, when sorted=False) its own way, so
    only tie-free inputs compare exactly. ops.topk exports it for other
    dims and largest=False with Transpose and Neg around it.
    """
    return select_top(input, k, -1, True, np.int32)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("TopK", "numba")
def top_k_numba(input, k, sorted=True):
    """TopK of float32/float64 tensors with the heap selection runner;
    other dtypes and k = 0 through the reference."""
    found = _fast_reduce.top_k(input, int(k), -1, largest=True)
    return top_k(input, k, sorted) if found is None \
        else (found[0], found[1].astype(np.int32))
