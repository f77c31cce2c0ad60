"""MaskedScatter."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, require_dtype


@register("MaskedScatter", family="shape", dtypes=ALL, no_kernel="vectorised")
def masked_scatter(input, mask, source):
    """Copy of input with the positions where mask is true filled from source.

    y = copy(input); the k-th true position of mask (broadcast to input's
    shape, row-major order) takes source.flat[k]. Arguments: input; mask
    (bool, broadcastable to input); source (same dtype, at least as many
    elements as true positions: MindSpore 2.7.1 raises otherwise).
    """
    require_dtype("MaskedScatter", "mask", mask, ("bool",))
    try:
        where = np.broadcast_to(mask, input.shape)
    except ValueError:
        raise ValueError(f"MaskedScatter: mask shape {mask.shape} does not "
                         f"broadcast to input shape {input.shape}") from None
    count = int(np.count_nonzero(where))
    if source.size < count:
        raise ValueError(f"MaskedScatter: source has {source.size} elements, "
                         f"mask selects {count}")
    out = input.copy()
    out[where] = source.reshape(-1)[:count].astype(input.dtype, copy=False)
    return out
