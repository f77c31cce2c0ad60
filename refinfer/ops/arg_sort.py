"""ArgSort."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.search import sort_along


@register("ArgSort", family="reduction", dtypes=NUMBERS,
          convert={"dim": args.scalar, "descending": args.boolean,
                   "stable": args.boolean})
def arg_sort(input, dim=-1, descending=False, stable=False):
    """The int64 indices that sort input along dim (mint.argsort).

    Arguments: input; dim=-1; descending=False; stable=False (always stable
    here). ops.argsort exports Sort and TupleGetItem instead. MindSpore
    2.7.1 has no CPU kernel for it.
    """
    return sort_along(input, dim, descending, np.int64)[1]


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("ArgSort", "numba")
def arg_sort_numba(input, dim=-1, descending=False, stable=False):
    """ArgSort with the radix sort runner (float32/64, int32/64); other
    dtypes through the reference."""
    found = _fast_reduce.sort(input, dim, descending)
    return arg_sort(input, dim, descending, stable) if found is None else found[1]
