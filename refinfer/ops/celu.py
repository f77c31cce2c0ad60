"""CeLU."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels.elementwise import CELU
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("CeLU", family="activation", dtypes=FLOATS,
          convert={"alpha": args.scalar}, recipe=CELU)
def celu(x, alpha=1.0):
    """Continuously differentiable ELU, elementwise.

    y = max(0, x) + min(0, alpha (e ** (x / alpha) - 1)). Arguments: x;
    alpha=1.0 (non-zero). float16 is computed in float32.
    """
    return unary_float(
        lambda v: np.maximum(v, 0) + np.minimum(0, alpha * np.expm1(v / alpha)), x)
