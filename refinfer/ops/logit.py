"""Logit."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels.elementwise import LOGIT
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Logit", family="elementwise", dtypes=FLOATS,
          convert={"eps": args.scalar}, recipe=LOGIT)
def logit(input, eps=-1.0):
    """Log-odds: y = ln(z / (1 - z)), z = clip(x, eps, 1 - eps).

    Arguments: input; eps=-1.0: a negative eps means no clipping (then
    0 -> -inf, 1 -> inf, outside [0, 1] -> NaN). Floats keep their dtype.
    """
    def log_odds(x):
        z = x if eps < 0 else np.clip(x, eps, 1 - eps)
        return np.log(z / (1 - z))
    return unary_float(log_odds, input)
