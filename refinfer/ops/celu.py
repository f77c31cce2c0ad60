"""CeLU."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("CeLU", family="activation", dtypes=FLOATS,
          convert={"alpha": args.scalar})
def celu(x, alpha=1.0):
    """Continuously differentiable ELU, elementwise.

    y = max(0, x) + min(0, alpha (e ** (x / alpha) - 1)). Arguments: x;
    alpha=1.0 (non-zero). float16 is computed in float32.
    """
    return unary_float(
        lambda v: np.maximum(v, 0) + np.minimum(0, alpha * np.expm1(v / alpha)), x)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("CeLU", "numba")
def celu_numba(x, alpha=1.0):
    """CeLU of float32/float64 tensors (Python numbers beside them) through its
    ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("CeLU", celu, x, alpha)
