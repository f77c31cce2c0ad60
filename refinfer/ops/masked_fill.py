"""MaskedFill."""
import numpy as np

from refinfer.registry import register

from ._kernels import logic
from ._ref.common import ALL, as_result, cast


@register("MaskedFill", family="comparison", dtypes=ALL,
          kernels={"numba": logic.masked_fill})
def masked_fill(input_x, mask, value):
    """Replace the elements where mask is True: y = mask ? value : input_x.

    Arguments: input_x; mask (bool tensor, broadcast with input_x); value (a
    0-d tensor or Python number, converted to input_x's dtype). Output has
    input_x's dtype and the broadcast shape.
    """
    fill = cast(np.asarray(value), input_x.dtype)
    return as_result(np.where(np.asarray(mask, dtype=bool), fill, input_x))
