"""SeLU, SeLUExt."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS, as_result, float_to_int
from ._ref.math import unary_float

ALPHA = 1.6732632423543772
SCALE = 1.0507009873554805


def selu_math(x):
    return SCALE * np.where(x > 0, x, ALPHA * np.expm1(np.minimum(x, 0)))


@register("SeLU", "SeLUExt", family="activation", dtypes=FLOATS + ("int8", "int32"))
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
        return as_result(float_to_int(SCALE * positive, input.dtype))
    return unary_float(selu_math, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("SeLU", "numba")
@register_kernel("SeLUExt", "numba")
def selu_numba(input):
    """SeLU / SeLUExt of float32/float64 tensors (Python numbers beside them)
    through its ``_fast_math`` recipe; everything else through the
    reference."""
    return _fast_math.apply("SeLU", selu, input)
