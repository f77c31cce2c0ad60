"""SoftShrink."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels.elementwise import SOFT_SHRINK
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("SoftShrink", family="activation", dtypes=FLOATS,
          convert={"lambd": args.scalar}, recipe=SOFT_SHRINK)
def soft_shrink(input, lambd=0.5):
    """Soft shrinkage: x - lambd above lambd, x + lambd below -lambd, else 0.

    Arguments: input; lambd=0.5 (>= 0). float16 is computed in float32.
    """
    return unary_float(
        lambda x: np.where(x > lambd, x - lambd,
                           np.where(x < -lambd, x + lambd, 0)), input)
