"""ClampTensor."""
from refinfer.registry import register

from ._common import NUMBERS
from ._math import clamp


@register("ClampTensor", family="elementwise", dtypes=NUMBERS)
def clamp_tensor(input, min=None, max=None):
    """Elementwise clamp to [min, max] with tensor bounds, broadcast.

    Arguments: input; min=None, max=None (tensors broadcastable to input;
    None: no bound on that side). y = minimum(maximum(x, min), max). The
    output keeps input's dtype: bounds are converted to it first.
    """
    return clamp(input, min, max)
