"""LeakyReLUExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._common import FLOATS
from ._math import unary_float


@register("LeakyReLUExt", family="activation", dtypes=FLOATS,
          convert={"negative_slope": args.scalar})
def leaky_relu_ext(input, negative_slope=0.01):
    """Leaky ReLU: y = x for x > 0, negative_slope * x otherwise.

    Arguments: input; negative_slope=0.01. What
    mint.nn.functional.leaky_relu exports (ops.leaky_relu exports
    Maximum(slope * x, x)); MindSpore 2.7.1 has no CPU kernel for it.
    """
    return unary_float(lambda x: np.where(x > 0, x, negative_slope * x), input)
