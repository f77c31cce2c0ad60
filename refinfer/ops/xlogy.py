"""Xlogy."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL
from ._ref.math import binary_float


@register("Xlogy", family="elementwise", dtypes=ALL)
def xlogy(input, other):
    """Elementwise y = input * ln(other), with broadcasting.

    Arguments: input, other (tensors or Python scalars). Computed plainly, as
    MindSpore 2.7.1's CPU kernel does: 0 * ln(0) is NaN (not 0 as in
    PyTorch), ln of a negative number is NaN. Floats keep the promoted dtype;
    integer and bool operands give float32.
    """
    return binary_float(lambda a, b: a * np.log(b), input, other)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Xlogy", "numba")
def xlogy_numba(input, other):
    """Xlogy of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Xlogy", xlogy, input, other)
