"""GatherD."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import index
from ._ref.common import ALL


@register("GatherD", family="shape", dtypes=ALL, convert={"dim": args.scalar},
          kernels={"numba": index.gather_d})
def gather_d(x, dim, index):
    """Gather along one axis with an index per output element.

    y[i0, .., i_dim, .., ik] = x[i0, .., index[i0, .., i_dim, .., ik], .., ik]

    Arguments: x; dim (negative allowed); index (int tensor of x's rank,
    each axis other than dim no longer than x's). Output has index's shape
    and x's dtype. What ops.gather_elements and mint.gather export. Negative
    indices count from the end (MindSpore accepts [-n, n)); others raise.
    """
    dim = int(dim) % max(x.ndim, 1)
    if index.ndim != x.ndim:
        raise ValueError(f"GatherD: index rank {index.ndim} differs from x "
                         f"rank {x.ndim}")
    if any(index.shape[a] > x.shape[a] for a in range(x.ndim) if a != dim):
        raise ValueError(f"GatherD: index shape {index.shape} exceeds x "
                         f"shape {x.shape} off axis {dim}")
    length = x.shape[dim]
    if index.size and (index.min() < -length or index.max() >= length):
        raise ValueError(f"GatherD: index out of range [-{length}, {length})")
    window = tuple(slice(None) if a == dim else slice(0, index.shape[a])
                   for a in range(x.ndim))
    return np.take_along_axis(x[window], index.astype(np.int64) % max(length, 1),
                              axis=dim)

