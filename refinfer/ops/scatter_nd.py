"""ScatterNd."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL
from ._ref.indexing import scatter


@register("ScatterNd", family="shape", dtypes=ALL,
          convert={"shape": args.ints})
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


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import index as _fast_index  # noqa: E402


@register_kernel("ScatterNd", "numba")
def scatter_nd_numba(indices, updates, shape):
    """ScatterNd with ``_fast_index.scatter`` (ADD, in index order) for
    float32/float64/int32/int64 updates; the rest through the reference."""
    out = None
    if updates.dtype != np.bool_:
        out = _fast_index.scatter(np.zeros(shape, dtype=updates.dtype), indices,
                                  updates, _fast_index.ADD, fresh=True)
    return scatter_nd(indices, updates, shape) if out is None else out
