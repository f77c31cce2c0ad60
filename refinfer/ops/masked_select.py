"""MaskedSelect."""
import numpy as np

from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL


@register("MaskedSelect", family="shape", dtypes=ALL,
          kernels={"numba": index.masked_select})
def masked_select(input, mask):
    """The elements of input where mask is true, as a 1-D tensor.

    input and mask broadcast against each other first; elements come in
    C order. Arguments: input; mask (bool tensor). All dtypes.
    """
    values, keep = np.broadcast_arrays(input, mask.astype(bool))
    return values[keep]

