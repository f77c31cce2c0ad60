"""ClampTensor."""
from refinfer.registry import register

from ._kernels.elementwise import CLAMP
from ._ref.common import NUMBERS
from ._ref.math import clamp


@register("ClampTensor", family="elementwise", dtypes=NUMBERS, recipe=CLAMP)
def clamp_tensor(input, min=None, max=None):
    """Elementwise clamp to [min, max] with tensor bounds, broadcast.

    Arguments: input; min=None, max=None (tensors broadcastable to input;
    None: no bound on that side). y = minimum(maximum(x, min), max). The
    output keeps input's dtype: bounds are converted to it first.
    """
    return clamp(input, min, max)
