"""PReLU."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS, as_result


@register("PReLU", family="activation", dtypes=FLOATS)
def prelu(input, weight):
    """Parametric ReLU: y = x for x > 0, w[c] * x otherwise.

    Arguments: input (rank >= 1; channels on axis 1 when rank >= 2); weight
    (one value per channel, or a single shared value). Output has input's
    dtype.
    """
    w = channel_weight(input, weight).astype(input.dtype, copy=False)
    return as_result(np.where(input > 0, input, w * input), input.dtype)


def channel_weight(input, weight):
    """The weight shaped to broadcast against input: along axis 1, or one
    shared value (0-d)."""
    w = weight.reshape(-1)
    if input.ndim >= 2 and w.size != 1:
        return w.reshape((1, -1) + (1,) * (input.ndim - 2))
    return w.reshape(()) if w.size == 1 else w


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("PReLU", "numba")
def prelu_numba(input, weight):
    """PReLU of float32/float64 tensors with a weight of their dtype
    through its ``_fast_math`` recipe, the weight shaped to broadcast as in
    the reference; everything else through the reference."""
    if not (isinstance(input, np.ndarray) and isinstance(weight, np.ndarray)):
        return prelu(input, weight)
    result = _fast_math.run_recipe("PReLU", input, channel_weight(input, weight))
    return prelu(input, weight) if result is None else result
