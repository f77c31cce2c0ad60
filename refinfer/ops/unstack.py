"""Unstack."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import ALL
from ._ref.search import one_axis


@register("Unstack", "UnstackExtView", "Unpack", family="shape", dtypes=ALL,
          convert={"axis": args.scalar}, kernels={"numba": shape.unstack})
def unstack(x, axis=0, num=None):
    """Split along an axis into its slices, removing that axis; a tuple.

    y[k] = x.take(k, axis) for k < x.shape[axis].

    Arguments: x (rank >= 1); axis=0 (negative allowed); num=None (an
    attribute of the classic PRIMITIVE, the number of outputs; checked when
    given). ops.unstack / ops.unbind export it (attributes axis, num).
    All dtypes.
    UnstackExtView(input, dim=0), the view form mint.unbind exports, binds here
    positionally and gives the same slices.
    Unpack is its old name (MindIR files of older MindSpore versions; 2.7.1's
    ops.Unpack exports Unstack).
    """
    if x.ndim == 0:
        raise ValueError("Unstack: input must have rank >= 1")
    axis = one_axis(axis, x.ndim)
    if num is not None and int(num) != x.shape[axis]:
        raise ValueError(f"Unstack: num={num} but axis {axis} of {x.shape} "
                         f"has length {x.shape[axis]}")
    return tuple(np.moveaxis(x, axis, 0).copy())

