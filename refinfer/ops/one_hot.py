"""OneHot."""
from refinfer import args
from refinfer.registry import register

from ._kernels import index
from ._ref import indexing
from ._ref.common import ALL


@register("OneHot", family="shape", dtypes=ALL,
          convert={"depth": args.scalar, "axis": args.scalar},
          kernels={"numba": index.one_hot})
def one_hot(indices, depth, on_value, off_value, axis=-1):
    """One-hot encoding: on_value where the class equals the index.

    y[..., c, ...] = on_value if indices[...] == c else off_value, for
    c < depth, the class axis inserted at ``axis``.

    Arguments: indices (int tensor, any rank); depth (int >= 0); on_value,
    off_value (0-d tensors or scalars; the output takes on_value's dtype);
    axis=-1 (in [-1, rank]). Indices outside [0, depth), negative ones
    included, give off_value everywhere (MindSpore CPU too).
    """
    return indexing.one_hot(indices, depth, on_value, off_value, axis)
