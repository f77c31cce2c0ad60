"""DivNoNan."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import binary
from ._kernels.program import OP_DIV_NO_NAN
from ._ref.common import FLOATS, as_result, promote


@register("DivNoNan", family="elementwise", dtypes=FLOATS, recipe=binary(OP_DIV_NO_NAN))
def div_no_nan(x1, x2):
    """Elementwise division that gives 0 where the divisor is 0.

    y = x1 / x2 where x2 != 0, else 0 (also for 0 / 0 and inf / 0); a NaN
    divisor still gives NaN. Arguments: x1, x2 (tensors or Python scalars,
    broadcast and promoted as for Div). Float dtypes.
    """
    a, b = promote(x1, x2)
    zero = b == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        quotient = np.true_divide(a, np.where(zero, np.ones_like(b), b))
    return as_result(np.where(zero, np.zeros_like(quotient), quotient))
