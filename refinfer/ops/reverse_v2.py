"""ReverseV2."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import ALL
from ._ref.reduce import reduce_axes


@register("ReverseV2", family="shape", dtypes=ALL, convert={"axis": args.ints},
          kernels={"numba": shape.reverse_v2})
def reverse_v2(input, axis):
    """Reverse the order of elements along the given axes (ops.flip).

    Arguments: input; axis (tuple of distinct axes, negative allowed).
    nn.LSTM's backward direction runs on ReverseV2'd sequences. All dtypes.
    """
    axes = reduce_axes(axis, input.ndim) if len(axis) else ()
    return np.flip(input, axes).copy()

