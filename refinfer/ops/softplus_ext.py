"""SoftplusExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("SoftplusExt", family="activation", dtypes=FLOATS,
          convert={"beta": args.scalar, "threshold": args.scalar})
def softplus_ext(input, beta=1, threshold=20):
    """Softplus with a scale and a linear region (mint softplus).

    y = ln(1 + e ** (beta x)) / beta, and y = x where beta x > threshold.
    Arguments: input; beta=1; threshold=20. MindSpore 2.7.1 has no CPU
    kernel for it.
    """
    def scaled_softplus(x):
        bx = beta * x
        return np.where(bx > threshold, x, np.logaddexp(0, bx) / beta)
    return unary_float(scaled_softplus, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("SoftplusExt", "numba")
def softplus_ext_numba(input, beta=1, threshold=20):
    """SoftplusExt of float32/float64 tensors (Python numbers beside them)
    through its ``_fast_math`` recipe; everything else through the
    reference."""
    return _fast_math.apply("SoftplusExt", softplus_ext, input, beta, threshold)
