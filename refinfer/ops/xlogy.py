"""Xlogy."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import XLOGY
from ._ref.common import ALL
from ._ref.math import binary_float


@register("Xlogy", family="elementwise", dtypes=ALL, recipe=XLOGY)
def xlogy(input, other):
    """Elementwise y = input * ln(other), with broadcasting.

    Arguments: input, other (tensors or Python scalars). Computed plainly, as
    MindSpore 2.7.1's CPU kernel does: 0 * ln(0) is NaN (not 0 as in
    PyTorch), ln of a negative number is NaN. Floats keep the promoted dtype;
    integer and bool operands give float32.
    """
    return binary_float(lambda a, b: a * np.log(b), input, other)
