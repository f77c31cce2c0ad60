"""Square."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS, as_result


@register("Square", family="elementwise", dtypes=NUMBERS)
def square(input):
    """Elementwise square: y = x * x, same dtype (integers wrap)."""
    return as_result(np.square(input))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import program as _fast  # noqa: E402


@register_kernel("Square", "numba")
def square_numba(input):
    """Square of float32/float64 tensors (Python numbers beside them) through
    ``_fast``; everything else through the reference."""
    return _fast.elementwise(_fast.OP_SQUARE, square, input)
