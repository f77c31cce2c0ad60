"""NanToNum."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import NAN_TO_NUM
from ._ref.common import FLOATS, as_result, number


@register("NanToNum", family="elementwise", dtypes=FLOATS, recipe=NAN_TO_NUM)
def nan_to_num(input, nan=None, posinf=None, neginf=None):
    """Replace NaN, +inf and -inf with finite values.

    Arguments: input; nan=None (0.0); posinf=None (the dtype's largest
    value); neginf=None (the dtype's lowest value). Other values, -0.0
    included, pass unchanged; integer inputs are returned as they are.
    """
    if input.dtype.kind != "f":
        return input
    info = np.finfo(input.dtype)
    y = np.nan_to_num(input, nan=0.0 if nan is None else number(nan),
                      posinf=info.max if posinf is None else number(posinf),
                      neginf=info.min if neginf is None else number(neginf))
    return as_result(y, input.dtype)
