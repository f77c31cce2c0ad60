"""Unique."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.indexing import unique_in_order


@register("Unique", family="shape", dtypes=NUMBERS, no_kernel="native")
def unique(input_x):
    """The distinct values of a 1-D tensor in order of first appearance.

    Returns (y, idx): y the distinct values as they first occur ([3, 1, 3, 2,
    1] -> [3, 1, 2]), idx (int32) the position in y of each input element,
    so input_x = y[idx]. Argument: input_x (1-D). The length of y depends
    on the values (a dynamic shape).
    """
    if input_x.ndim != 1:
        raise ValueError(f"Unique: input_x must be 1-D, got shape {input_x.shape}")
    values, index = unique_in_order(input_x)
    return values, index.astype(np.int32)
