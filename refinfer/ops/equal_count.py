"""EqualCount."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS


@register("EqualCount", family="reduction", dtypes=NUMBERS, no_kernel="native")
def equal_count(x, y):
    """The number of equal elements of two tensors, as a (1,) tensor.

    y = [sum(x == y)] in x's dtype (NaN equals nothing). Arguments: x, y
    (tensors of one shape and dtype).
    """
    if x.shape != y.shape:
        raise ValueError(f"EqualCount: x {x.shape} and y {y.shape} must have "
                         "one shape")
    return np.array([np.count_nonzero(np.equal(x, y))], x.dtype)
