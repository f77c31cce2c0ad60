"""OneHot."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._common import ALL


@register("OneHot", family="shape", dtypes=ALL,
          convert={"depth": args.scalar, "axis": args.scalar})
def one_hot(indices, depth, on_value, off_value, axis=-1):
    """One-hot encoding: on_value where the class equals the index.

    y[..., c, ...] = on_value if indices[...] == c else off_value, for
    c < depth, the class axis inserted at ``axis``.

    Arguments: indices (int tensor, any rank); depth (int >= 0); on_value,
    off_value (0-d tensors or scalars; the output takes on_value's dtype);
    axis=-1 (in [-1, rank]). Indices outside [0, depth), negative ones
    included, give off_value everywhere (MindSpore CPU too).
    """
    depth, axis = int(depth), int(axis)
    if depth < 0:
        raise ValueError(f"OneHot: depth must be >= 0, got {depth}")
    if not -1 <= axis <= indices.ndim:
        raise ValueError(f"OneHot: axis {axis} out of range for rank "
                         f"{indices.ndim}")
    on, off = np.asarray(on_value), np.asarray(off_value)
    hot = indices[..., None] == np.arange(depth)
    out = np.where(hot, on, off.astype(on.dtype))
    return np.moveaxis(out, -1, axis) if axis != -1 else out
