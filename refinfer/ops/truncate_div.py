"""TruncateDiv."""
from refinfer.registry import register

from ._kernels import logic
from ._ref.common import NUMBERS, promote
from ._ref.math import truncate_divide


@register("TruncateDiv", family="elementwise", dtypes=NUMBERS,
          kernels={"numba": logic.division(logic.TRUNC_DIV)})
def truncate_div(x, y):
    """Elementwise division rounded toward zero: z = trunc(x / y).

    Arguments: x, y (tensors or Python scalars), promoted as for arithmetic;
    the result keeps the promoted dtype (int32 -7 / 2 = -3). Floats: x / 0
    is +-inf, 0 / 0 NaN; an integer x / 0 saturates to the dtype's max or
    min (0 / 0 = 0), as MindSpore 2.7.1 CPU. Bool is rejected.
    """
    a, b = promote(x, y)
    if a.dtype.kind == "b":
        raise TypeError("TruncateDiv does not support bool operands")
    return truncate_divide(a, b)
