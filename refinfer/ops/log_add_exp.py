"""LogAddExp."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import binary
from ._kernels.program import OP_LOGADDEXP
from ._ref.common import FLOATS
from ._ref.math import binary_float


@register("LogAddExp", family="elementwise", dtypes=FLOATS, recipe=binary(OP_LOGADDEXP))
def log_add_exp(input, other):
    """Elementwise y = ln(e ** input + e ** other), without overflow.

    Arguments: input, other (float tensors, broadcast together). What
    mint.logaddexp exports (ops.logaddexp exports Maximum, Exp, Log1p...);
    MindSpore 2.7.1 has no CPU kernel for it.
    """
    return binary_float(np.logaddexp, input, other)
