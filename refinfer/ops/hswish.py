"""HSwish."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_HSWISH
from ._ref.common import NUMBERS, as_result, compute_dtype


@register("HSwish", family="activation", dtypes=NUMBERS, recipe=unary(OP_HSWISH))
def hswish(input):
    """Hard swish: y = x * min(max(x + 3, 0), 6) / 6, elementwise.

    Argument: input. Output has input's dtype; float16 is computed in
    float32. Integer inputs are accepted by MindSpore 2.7.1 CPU and give the
    real result truncated toward zero (int32 [-1, 1, 2, 4] -> [0, 0, 1, 4]).
    """
    work = compute_dtype(input.dtype) if input.dtype.kind == "f" \
        else np.dtype(np.float64)
    x = input.astype(work, copy=False)
    y = x * np.clip(x + 3, 0, 6) / 6
    return as_result(y, input.dtype)
