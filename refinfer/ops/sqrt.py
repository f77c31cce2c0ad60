"""Sqrt."""
import numpy as np

from refinfer.registry import register

from ._kernels.elementwise import unary
from ._kernels.program import OP_SQRT
from ._ref.common import ALL, as_float, as_result


@register("Sqrt", family="elementwise", dtypes=ALL, recipe=unary(OP_SQRT))
def sqrt(x):
    """Elementwise square root.

    Argument: x. Floats keep their dtype, negative inputs give NaN; integer
    and bool inputs give float32 (MindSpore: int32 [1, 3] -> float32).
    """
    with np.errstate(invalid="ignore"):
        return as_result(np.sqrt(as_float(x)))
