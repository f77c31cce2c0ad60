"""HSigmoid."""
import numpy as np

from refinfer.registry import register

from ._ref.common import NUMBERS
from ._ref.math import real_or_truncated


@register("HSigmoid", family="activation", dtypes=NUMBERS)
def hsigmoid(input):
    """Hard sigmoid: y = min(max(x + 3, 0), 6) / 6, elementwise.

    Argument: input; output has its dtype (float16 is computed in float32).
    Integer inputs give the real result truncated toward zero, as MindSpore
    2.7.1 CPU (int32 [2, 3] -> [0, 1]).
    """
    return real_or_truncated(lambda x: np.clip(x + 3, 0, 6) / 6, input)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import elementwise as _fast_math  # noqa: E402


@register_kernel("HSigmoid", "numba")
def hsigmoid_numba(input):
    """HSigmoid of float32/float64 tensors (Python numbers beside them) through
    its ``_fast_math`` recipe; everything else through the reference."""
    return _fast_math.apply("HSigmoid", hsigmoid, input)
