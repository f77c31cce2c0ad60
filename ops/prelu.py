"""PReLU."""
import numpy as np

from refinfer.registry import register

from ._common import FLOATS, as_result


@register("PReLU", family="activation", dtypes=FLOATS)
def prelu(input, weight):
    """Parametric ReLU: y = x for x > 0, w[c] * x otherwise.

    Arguments: input (rank >= 1; channels on axis 1 when rank >= 2); weight
    (one value per channel, or a single shared value). Output has input's
    dtype.
    """
    w = weight.reshape(-1)
    if input.ndim >= 2 and w.size != 1:
        w = w.reshape((1, -1) + (1,) * (input.ndim - 2))
    elif w.size == 1:
        w = w.reshape(())
    w = w.astype(input.dtype, copy=False)
    return as_result(np.where(input > 0, input, w * input), input.dtype)
