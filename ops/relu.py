"""ReLU."""
import numpy as np

from refinfer.registry import register

from ._common import NUMBERS


@register("ReLU", family="activation", dtypes=NUMBERS)
def relu(input):
    """Rectified linear unit: y = max(x, 0), elementwise.

    Arguments: input (tensor).
    Output has the dtype and shape of ``input``.
    """
    return np.maximum(input, input.dtype.type(0))
