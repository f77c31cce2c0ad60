"""SoftplusExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels.elementwise import SOFTPLUS_EXT
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("SoftplusExt", family="activation", dtypes=FLOATS,
          convert={"beta": args.scalar, "threshold": args.scalar}, recipe=SOFTPLUS_EXT)
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
