"""Hardtanh."""
from refinfer.registry import register

from ._kernels.elementwise import CLAMP
from ._ref.common import NUMBERS
from ._ref.math import clamp


@register("Hardtanh", family="activation", dtypes=NUMBERS, recipe=CLAMP)
def hardtanh(input, min_val=-1, max_val=1):
    """Hard tanh: y = min(max(x, min_val), max_val), elementwise.

    Arguments: input; min_val=-1, max_val=1 (Python numbers). What
    mint.nn.functional.hardtanh and relu6 export; MindSpore 2.7.1 has no
    CPU kernel for it. Output keeps input's dtype.
    """
    return clamp(input, min_val, max_val)
