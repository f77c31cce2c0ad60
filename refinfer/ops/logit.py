"""Logit."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Logit", family="elementwise", dtypes=FLOATS,
          convert={"eps": args.scalar})
def logit(input, eps=-1.0):
    """Log-odds: y = ln(z / (1 - z)), z = clip(x, eps, 1 - eps).

    Arguments: input; eps=-1.0: a negative eps means no clipping (then
    0 -> -inf, 1 -> inf, outside [0, 1] -> NaN). Floats keep their dtype.
    """
    def log_odds(x):
        z = x if eps < 0 else np.clip(x, eps, 1 - eps)
        return np.log(z / (1 - z))
    return unary_float(log_odds, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("Logit", "numba")
def logit_numba(input, eps=-1.0):
    """Logit of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("Logit", logit, input, eps)
