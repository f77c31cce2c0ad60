"""GatherNd."""
import numpy as np

from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL
from ._ref.indexing import nd_index


@register("GatherNd", family="shape", dtypes=ALL,
          kernels={"numba": index.gather_nd})
def gather_nd(input_x, indices):
    """Gather slices addressed by index tuples along the last axis of indices.

    y[b...] = input_x[indices[b..., 0], ..., indices[b..., k-1], ...],
    k = indices.shape[-1]; output shape indices.shape[:-1] +
    input_x.shape[k:].

    Arguments: input_x; indices (int tensor, rank >= 1, k <= rank of
    input_x). Negative or out-of-range indices raise (MindSpore CPU too).
    All dtypes.
    """
    index = nd_index(indices, input_x.shape, "GatherNd")
    if not index:  # k = 0: every index tuple selects the whole input
        return np.broadcast_to(input_x, indices.shape[:-1] + input_x.shape).copy()
    return input_x[index].copy()

