"""ScatterNd."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL
from ._ref.indexing import scatter


@register("ScatterNd", family="shape", dtypes=ALL,
          convert={"shape": args.ints}, kernels={"numba": index.scatter_nd})
def scatter_nd(indices, updates, shape):
    """Scatter updates into a zero tensor of the given shape, summing repeats.

    y = zeros(shape); y[indices[b..., :]] += updates[b...].

    Arguments: indices (int tensor, last axis k <= len(shape)); updates of
    shape indices.shape[:-1] + shape[k:]; shape (tuple). Output has
    updates' dtype. Negative or out-of-range indices raise (MindSpore CPU
    too). Bool updates combine with logical or.
    """
    target = np.zeros(shape, dtype=updates.dtype)
    combine = np.logical_or if updates.dtype == np.bool_ else np.add
    return scatter(target, indices, updates, combine, "ScatterNd")

