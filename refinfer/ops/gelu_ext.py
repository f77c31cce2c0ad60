"""GeluExt."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import GELU_EXT
from ._ref.common import FLOATS
from ._ref.math import erf_f64, gelu_tanh, unary_float

# MindIR codes of the approximate argument.
APPROXIMATIONS = {0: "none", 1: "tanh"}


def approximation(value):
    """A MindIR code or a string -> "none" or "tanh"."""
    if isinstance(value, str) and value.lower() in APPROXIMATIONS.values():
        return value.lower()
    if isinstance(value, (int, np.integer)) and int(value) in APPROXIMATIONS:
        return APPROXIMATIONS[int(value)]
    raise ValueError(f"unknown approximate {value!r}")


def gelu_erf(x):
    return 0.5 * x * (1 + erf_f64(x / np.sqrt(2.0)))


@register("GeluExt", family="activation", dtypes=FLOATS,
          convert={"approximate": approximation}, recipe=GELU_EXT)
def gelu_ext(input, approximate="none"):
    """Gaussian error linear unit (mint.nn.functional.gelu), elementwise.

    Arguments: input; approximate="none" (code 0): y = x * Phi(x) =
    0.5 x (1 + erf(x / sqrt(2))); "tanh" (code 1): as GeLU. MindSpore 2.7.1
    has no CPU kernel for it.
    """
    return unary_float(gelu_tanh if approximate == "tanh" else gelu_erf, input)
