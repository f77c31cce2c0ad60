"""SortExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.search import sort_along


@register("SortExt", family="reduction", dtypes=NUMBERS,
          convert={"dim": args.scalar, "descending": args.boolean,
                   "stable": args.boolean})
def sort_ext(input, dim=-1, descending=False, stable=False):
    """Sort along one dim (mint.sort): (values, int64 indices).

    Arguments: input; dim=-1; descending=False; stable=False (the sort is
    always stable here). MindSpore 2.7.1 has no CPU kernel for it.
    """
    return sort_along(input, dim, descending, np.int64)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("SortExt", "numba")
def sort_ext_numba(input, dim=-1, descending=False, stable=False):
    """SortExt with the radix sort runner (float32/64, int32/64); other
    dtypes through the reference."""
    return _fast_reduce.or_reference(_fast_reduce.sort(input, dim, descending),
                                     sort_ext, input, dim, descending, stable)
