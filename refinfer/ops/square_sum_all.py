"""SquareSumAll."""
import numpy as np

from refinfer.registry import register

from ._ref.common import as_result, compute_dtype


@register("SquareSumAll", family="reduction", dtypes=("float16", "float32"),
          no_kernel="native")
def square_sum_all(x, y):
    """The sums of squares of two tensors: (sum(x ** 2), sum(y ** 2)), 0-d.

    Arguments: x, y (float16 or float32 tensors of one shape and dtype);
    each sum is accumulated in float32 and returned in the input's dtype.
    """
    return tuple(as_result(np.sum(np.square(t.astype(compute_dtype(t.dtype)))),
                           t.dtype) for t in (x, y))
