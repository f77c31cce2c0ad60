"""PReLU."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import PRELU
from ._ref.common import FLOATS, as_result
from ._ref.math import channel_weight


@register("PReLU", family="activation", dtypes=FLOATS, recipe=PRELU)
def prelu(input, weight):
    """Parametric ReLU: y = x for x > 0, w[c] * x otherwise.

    Arguments: input (rank >= 1; channels on axis 1 when rank >= 2); weight
    (one value per channel, or a single shared value). Output has input's
    dtype.
    """
    w = channel_weight(input, weight).astype(input.dtype, copy=False)
    return as_result(np.where(input > 0, input, w * input), input.dtype)
