"""NonZero."""
import numpy as np

from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL


@register("NonZero", family="shape", dtypes=ALL, kernels={"numba": index.non_zero})
def non_zero(input):
    """Coordinates of the non-zero elements, one row each, in C order.

    y has shape (count, rank) and dtype int64: y[k] is the index of the
    k-th non-zero element of input. Rank 0 is an error (MindSpore CPU too).
    """
    if input.ndim == 0:
        raise ValueError("NonZero: input must have rank >= 1")
    return np.argwhere(input).astype(np.int64)

