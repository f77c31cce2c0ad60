"""Sign."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_SIGN
from ._ref.common import NUMBERS, as_result, require_dtype


@register("Sign", family="elementwise", dtypes=NUMBERS, recipe=unary(OP_SIGN))
def sign(input):
    """Elementwise sign: -1 for x < 0, 0 for x == 0, 1 for x > 0.

    Argument: input; output has its dtype. NaN gives 0, as MindSpore's CPU
    kernel computes it (NumPy's sign gives NaN). MindSpore 2.7.1's CPU
    kernel takes floats, int32 and int64.
    """
    require_dtype("Sign", "input", input, NUMBERS)
    with np.errstate(invalid="ignore"):
        y = np.sign(input)
    if input.dtype.kind == "f":
        y = np.where(np.isnan(input), input.dtype.type(0), y)
    return as_result(y, input.dtype)
