"""MaskedFill."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, as_result, cast


@register("MaskedFill", family="comparison", dtypes=ALL)
def masked_fill(input_x, mask, value):
    """Replace the elements where mask is True: y = mask ? value : input_x.

    Arguments: input_x; mask (bool tensor, broadcast with input_x); value (a
    0-d tensor or Python number, converted to input_x's dtype). Output has
    input_x's dtype and the broadcast shape.
    """
    fill = cast(np.asarray(value), input_x.dtype)
    return as_result(np.where(np.asarray(mask, dtype=bool), fill, input_x))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import logic as _fast_logic  # noqa: E402


@register_kernel("MaskedFill", "numba")
def masked_fill_numba(input_x, mask, value):
    """MaskedFill in one compiled pass over any broadcast (``_fast_logic``'s
    select kernel: every dtype, moved as unsigned integers of its width)."""
    return _fast_logic.masked_fill(masked_fill, input_x, mask, value)
