"""Trunc."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS, as_result


@register("Trunc", family="elementwise", dtypes=NUMBERS)
def trunc(input):
    """Elementwise rounding toward zero: the integer part of x.

    Argument: input; output has its dtype. Integers are returned unchanged.
    """
    if input.dtype.kind != "f":
        return input
    return as_result(np.trunc(input), input.dtype)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Trunc", "numba")
def trunc_numba(input):
    """Trunc of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Trunc", trunc, input)
