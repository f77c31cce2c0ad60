"""Median."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import NUMBERS
from ._ref.search import lower_median


@register("Median", family="reduction", dtypes=NUMBERS,
          convert={"global_median": args.boolean, "axis": args.scalar,
                   "keep_dims": args.boolean, "ignore_nan": args.boolean},
          kernels={"numba": reduce.median})
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
