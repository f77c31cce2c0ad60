"""LeakyReLUExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("LeakyReLUExt", family="activation", dtypes=FLOATS,
          convert={"negative_slope": args.scalar})
def leaky_relu_ext(input, negative_slope=0.01):
    """Leaky ReLU: y = x for x > 0, negative_slope * x otherwise.

    Arguments: input; negative_slope=0.01. What
    mint.nn.functional.leaky_relu exports (ops.leaky_relu exports
    Maximum(slope * x, x)); MindSpore 2.7.1 has no CPU kernel for it.
    """
    return unary_float(lambda x: np.where(x > 0, x, negative_slope * x), input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("LeakyReLUExt", "numba")
def leaky_relu_ext_numba(input, negative_slope=0.01):
    """LeakyReLUExt of float32/float64 tensors (Python numbers beside them)
    through its ``_fast_math`` recipe; everything else through the
    reference."""
    return _fast_math.apply("LeakyReLUExt", leaky_relu_ext, input, negative_slope)
