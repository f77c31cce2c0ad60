"""RealDiv."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import binary
from ._kernels.program import OP_DIV
from ._ref.common import NUMBERS, as_result, promote


@register("RealDiv", family="elementwise", dtypes=NUMBERS, recipe=binary(OP_DIV))
def real_div(x, y):
    """Elementwise division with broadcasting, keeping the promoted dtype.

    Arguments: x, y (tensors or Python scalars). For floats it is Div.
    Integer operands stay integers, as MindSpore 2.7.1 CPU computes them:
    C division, truncating toward zero (-7 / 2 -> -3), and x / 0 saturates
    to the dtype's max (x > 0) or min (x < 0), 0 / 0 -> 0. Bool is rejected.
    """
    a, b = promote(x, y)
    if a.dtype.kind == "b":
        raise TypeError("RealDiv does not support bool operands")
    if a.dtype.kind in "fc":
        with np.errstate(divide="ignore", invalid="ignore"):
            return as_result(np.true_divide(a, b))
    a, b = np.broadcast_arrays(a, b)
    zero = b == 0
    safe = np.where(zero, 1, b).astype(b.dtype)
    with np.errstate(over="ignore"):
        q = np.floor_divide(a, safe)
    q += ((q * safe != a) & ((a < 0) != (safe < 0))).astype(q.dtype)
    info = np.iinfo(a.dtype)
    limit = np.where(a > 0, info.max, np.where(a < 0, info.min, 0))
    return as_result(np.where(zero, limit.astype(a.dtype), q))
