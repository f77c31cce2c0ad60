"""Mvlgamma."""
import math

import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS
from ._ref.math import scalar_math, unary_float


@register("Mvlgamma", family="elementwise", dtypes=FLOATS,
          convert={"p": args.scalar}, no_kernel="vectorised")
def mvlgamma(x, p):
    """Multivariate log-gamma of dimension p, elementwise.

    y = p (p - 1) / 4 log(pi) + sum_{j=1..p} lgamma(x - (j - 1) / 2).
    Arguments: x (float; every element must exceed (p - 1) / 2: MindSpore
    2.7.1 raises otherwise); p (int attribute >= 1). Computed in float64.
    """
    p = int(p)
    if p < 1:
        raise ValueError(f"Mvlgamma: p must be >= 1, got {p}")
    if x.size and not np.all(x > (p - 1) / 2):
        raise ValueError(f"Mvlgamma: every element of x must exceed (p - 1) / 2 = "
                         f"{(p - 1) / 2}, the smallest is {x.min()}")

    def log_gamma(v):
        wide = np.asarray(v, np.float64)
        terms = sum(scalar_math(math.lgamma, wide - j / 2) for j in range(p))
        return terms + p * (p - 1) / 4 * math.log(math.pi)
    return unary_float(log_gamma, x)
