"""SeLU, SeLUExt."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import SELU
from ._ref.common import FLOATS, as_result, float_to_int
from ._ref.math import SELU_ALPHA, SELU_SCALE, unary_float


def selu_math(x):
    return SELU_SCALE * np.where(
        x > 0, x, SELU_ALPHA * np.expm1(np.minimum(x, 0)))


@register("SeLU", "SeLUExt", family="activation", dtypes=FLOATS + ("int8", "int32"),
          recipe=SELU)
def selu(input):
    """Scaled exponential linear unit, elementwise.

    y = scale * x for x > 0, scale * alpha * (e ** x - 1) otherwise, with
    alpha = 1.6732632423543772, scale = 1.0507009873554805. Argument: input;
    float16 is computed in float32. MindSpore 2.7.1 CPU also takes int8 and
    int32, giving trunc(scale * x) for x > 0 and 0 otherwise; so does this.
    SeLUExt is what mint.nn.functional.selu exports (no CPU kernel).
    """
    if input.dtype.kind in "iu":
        positive = np.maximum(input, 0).astype(np.float64)
        return as_result(float_to_int(SELU_SCALE * positive, input.dtype))
    return unary_float(selu_math, input)
