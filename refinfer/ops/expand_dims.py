"""ExpandDims."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("ExpandDims", "ExpandDimsView", family="shape", dtypes=ALL,
          convert={"axis": args.scalar}, no_kernel="view")
def expand_dims(input_x, axis):
    """Insert a length-1 axis at position axis (in [-rank-1, rank]).

    ExpandDimsView (the view form mint exports) is the same values.
    """
    return np.expand_dims(input_x, int(axis))
