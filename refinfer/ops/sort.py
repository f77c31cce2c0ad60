"""Sort."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.search import sort_along


@register("Sort", family="reduction", dtypes=NUMBERS,
          convert={"axis": args.scalar, "descending": args.boolean})
def sort(x, axis=-1, descending=False):
    """Sort along one axis: (values, int32 indices), stable.

    Arguments: x; axis=-1, descending=False (attributes). Equal values keep
    their order (MindSpore 2.7.1 CPU does too). NaN sorts last here;
    MindSpore's comparison sort gives unspecified orders around NaN.
    """
    return sort_along(x, axis, descending, np.int32)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("Sort", "numba")
def sort_numba(x, axis=-1, descending=False):
    """Sort with the radix sort runner (float32/64, int32/64); other dtypes
    through the reference."""
    found = _fast_reduce.sort(x, axis, descending)
    return sort(x, axis, descending) if found is None else (found[0], found[1].astype(np.int32))
