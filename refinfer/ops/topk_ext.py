"""TopkExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.search import top_k


@register("TopkExt", family="reduction", dtypes=NUMBERS,
          convert={"k": args.scalar, "dim": args.scalar,
                   "largest": args.boolean, "sorted": args.boolean})
def topk_ext(input, k, dim=-1, largest=True, sorted=True):
    """The k largest (or smallest) values along dim and their int64 indices.

    What mint.topk exports. Arguments: input; k; dim=-1; largest=True;
    sorted=True (the result is always sorted here). Ties in index order.
    MindSpore 2.7.1 has no CPU kernel for it.
    """
    return top_k(input, k, dim, largest, np.int64)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("TopkExt", "numba")
def topk_ext_numba(input, k, dim=-1, largest=True, sorted=True):
    """TopkExt of float32/float64 tensors with the heap selection runner;
    other dtypes and k = 0 through the reference."""
    return _fast_reduce.or_reference(_fast_reduce.top_k(input, int(k), dim, largest),
                                     topk_ext, input, k, dim, largest, sorted)
