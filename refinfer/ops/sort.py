"""Sort."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import reduce
from ._ref.common import NUMBERS
from ._ref.search import sort_along


@register("Sort", family="reduction", dtypes=NUMBERS,
          convert={"axis": args.scalar, "descending": args.boolean},
          kernels={"numba": reduce.sort})
def sort(x, axis=-1, descending=False):
    """Sort along one axis: (values, int32 indices), stable.

    Arguments: x; axis=-1, descending=False (attributes). Equal values keep
    their order (MindSpore 2.7.1 CPU does too). NaN sorts last here;
    MindSpore's comparison sort gives unspecified orders around NaN.
    """
    return sort_along(x, axis, descending, np.int32)
