"""LogAddExp."""
import numpy as np

from refinfer.registry import register

from ._common import FLOATS
from ._math import binary_float


@register("LogAddExp", family="elementwise", dtypes=FLOATS)
def log_add_exp(input, other):
    """Elementwise y = ln(e ** input + e ** other), without overflow.

    Arguments: input, other (float tensors, broadcast together). What
    mint.logaddexp exports (ops.logaddexp exports Maximum, Exp, Log1p...);
    MindSpore 2.7.1 has no CPU kernel for it.
    """
    return binary_float(np.logaddexp, input, other)
