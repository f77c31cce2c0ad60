"""NonZeroExt."""
import numpy as np

from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL


@register("NonZeroExt", family="shape", dtypes=ALL,
          kernels={"numba": index.non_zero_ext})
def non_zero_ext(input):
    """Coordinates of the non-zero elements as one 1-D array per axis.

    A tuple of rank int64 arrays of length count, as np.nonzero (what
    mint.nonzero(as_tuple=True) and mint.where(cond) export). MindSpore
    2.7.1 has no CPU kernel for it.
    """
    return tuple(i.astype(np.int64) for i in np.nonzero(np.atleast_1d(input)))

