"""Median."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.search import lower_median


@register("Median", family="reduction", dtypes=NUMBERS,
          convert={"global_median": args.boolean, "axis": args.scalar,
                   "keep_dims": args.boolean, "ignore_nan": args.boolean})
def median(x, global_median=False, axis=0, keep_dims=False, ignore_nan=False):
    """Median along one axis, or of every element: (values, int64 indices).

    What ops.median exports (a classic PRIMITIVE: every argument but x is an
    attribute). Arguments: x; global_median=False (True: the median of all
    elements, 0-d, with index 0); axis=0; keep_dims=False; ignore_nan=False
    (not supported). For an even count the lower of the two middle values
    is taken. Indices point at a position holding the median; with repeated
    values MindSpore may report another occurrence.
    """
    if ignore_nan:
        raise NotImplementedError("Median with ignore_nan=True")
    if global_median:
        values, _ = lower_median(x.reshape(-1), 0)
        return values, np.zeros((), np.int64)
    return lower_median(x, axis, keep_dims)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import reduce as _fast_reduce  # noqa: E402


@register_kernel("Median", "numba")
def median_numba(x, global_median=False, axis=0, keep_dims=False, ignore_nan=False):
    """Median of float32/float64 tensors with a per-row selection; other
    dtypes and ignore_nan through the reference."""
    if ignore_nan:
        return median(x, global_median, axis, keep_dims, ignore_nan)
    if global_median:
        found = _fast_reduce.median(x.reshape(-1), 0)
        found = None if found is None else (found[0], np.zeros((), np.int64))
    else:
        found = _fast_reduce.median(x, axis, keep_dims)
    return _fast_reduce.or_reference(found, median, x, global_median, axis, keep_dims)
