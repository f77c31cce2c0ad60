"""Elu, EluExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels.elementwise import ELU
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("Elu", "EluExt", family="activation", dtypes=FLOATS,
          convert={"alpha": args.scalar}, recipe=ELU)
def elu(input, alpha=1.0):
    """Exponential linear unit: y = x for x > 0, alpha (e ** x - 1) else.

    Arguments: input; alpha=1.0 (MindSpore's Elu accepts only 1.0; EluExt,
    what mint.nn.functional.elu exports, any value but has no CPU kernel in
    2.7.1). float16 is computed in float32.
    """
    return unary_float(
        lambda x: np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0))), input)
