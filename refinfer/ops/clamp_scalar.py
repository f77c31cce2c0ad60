"""ClampScalar."""
from refinfer.registry import register

from ._kernels.elementwise import CLAMP
from ._ref.common import NUMBERS
from ._ref.math import clamp


@register("ClampScalar", family="elementwise", dtypes=NUMBERS, recipe=CLAMP)
def clamp_scalar(input, min=None, max=None):
    """Elementwise clamp to [min, max] with Python-number bounds (ops.clamp).

    Arguments: input; min=None, max=None (None: no bound on that side; at
    least one is given). y = minimum(maximum(x, min), max), so max wins when
    min > max. The output keeps input's dtype: bounds are converted to it
    first (int32 input, min 0.5, max 2.5 clamps to [0, 2], as MindSpore).
    """
    return clamp(input, min, max)
