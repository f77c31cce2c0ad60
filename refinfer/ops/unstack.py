"""Unstack."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("Unstack", family="shape", dtypes=ALL,
          convert={"axis": args.scalar})
def unstack(x, axis=0, num=None):
    """Split along an axis into its slices, removing that axis; a tuple.

    y[k] = x.take(k, axis) for k < x.shape[axis].

    Arguments: x (rank >= 1); axis=0 (negative allowed); num=None (an
    attribute of the classic PRIMITIVE, the number of outputs; checked when
    given). ops.unstack / ops.unbind export it (attributes axis, num).
    All dtypes.
    """
    axis = int(axis)
    if x.ndim == 0:
        raise ValueError("Unstack: input must have rank >= 1")
    if num is not None and int(num) != x.shape[axis]:
        raise ValueError(f"Unstack: num={num} but axis {axis} of {x.shape} "
                         f"has length {x.shape[axis]}")
    return tuple(np.moveaxis(x, axis, 0).copy())


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import shape as _fast_shape  # noqa: E402


@register_kernel("Unstack", "numba")
def unstack_numba(x, axis=0, num=None):
    """The axis moved to the front by a blocked copy (_fast_shape.permute),
    then split into its rows; invalid arguments go to the reference."""
    axis, rank = int(axis), x.ndim
    if rank == 0 or not -rank <= axis < rank or (
            num is not None and int(num) != x.shape[axis]):
        return unstack(x, axis, num)
    axis %= rank
    y = _fast_shape.permute(x, [axis] + [k for k in range(rank) if k != axis])
    return unstack(x, axis, num) if y is None else tuple(y)
