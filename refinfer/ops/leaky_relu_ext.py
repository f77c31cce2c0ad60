"""LeakyReLUExt."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels.elementwise import LEAKY_RELU
from ._ref.common import FLOATS
from ._ref.math import unary_float


@register("LeakyReLUExt", family="activation", dtypes=FLOATS,
          convert={"negative_slope": args.scalar}, recipe=LEAKY_RELU)
def leaky_relu_ext(input, negative_slope=0.01):
    """Leaky ReLU: y = x for x > 0, negative_slope * x otherwise.

    Arguments: input; negative_slope=0.01. What
    mint.nn.functional.leaky_relu exports (ops.leaky_relu exports
    Maximum(slope * x, x)); MindSpore 2.7.1 has no CPU kernel for it.
    """
    return unary_float(lambda x: np.where(x > 0, x, negative_slope * x), input)
