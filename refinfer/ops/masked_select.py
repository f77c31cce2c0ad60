"""MaskedSelect."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL


@register("MaskedSelect", family="shape", dtypes=ALL)
def masked_select(input, mask):
    """The elements of input where mask is true, as a 1-D tensor.

    input and mask broadcast against each other first; elements come in
    C order. Arguments: input; mask (bool tensor). All dtypes.
    """
    values, keep = np.broadcast_arrays(input, mask.astype(bool))
    return values[keep]


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import index as _fast_index  # noqa: E402


@register_kernel("MaskedSelect", "numba")
def masked_select_numba(input, mask):
    """MaskedSelect as count-then-fill (``_fast_index.masked_select``) for
    a bool mask of input's shape; broadcasts through the reference."""
    out = _fast_index.masked_select(input, mask)
    return masked_select(input, mask) if out is None else out
