"""OneHot."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


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


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import index as _fast_index  # noqa: E402


@register_kernel("OneHot", "numba")
def one_hot_numba(indices, depth, on_value, off_value, axis=-1):
    """OneHot in one pass (``_fast_index.one_hot``) for int32/int64
    indices; small or odd cases through the reference."""
    out = _fast_index.one_hot(indices, int(depth), on_value, off_value, int(axis))
    return one_hot(indices, depth, on_value, off_value, axis) if out is None else out
