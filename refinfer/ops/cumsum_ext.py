"""CumsumExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.search import cumulative
from .prod_ext import as_sum_dtype


@register("CumsumExt", family="reduction", dtypes=ALL,
          convert={"dim": args.scalar, "dtype": args.optional_dtype})
def cumsum_ext(input, dim, dtype=None):
    """Cumulative sum along one dim (mint.cumsum).

    Arguments: input; dim; dtype=None (TypeId): when given, input is cast
    to it first; without it, bool and integer inputs sum in int64 (as
    SumExt). MindSpore 2.7.1 has no CPU kernel for it.
    """
    return cumulative(np.cumsum, as_sum_dtype(input, dtype), dim, False, False, identity=0)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("CumsumExt", "numba")
def cumsum_ext_numba(input, dim, dtype=None):
    """CumsumExt with the scan runner after the same cast; other dtypes
    through the reference."""
    work = as_sum_dtype(input, dtype)
    return _fast_reduce.or_reference(_fast_reduce.scan(_fast_reduce.CUMSUM, work, dim),
                                     cumsum_ext, input, dim, dtype)
