"""ReverseV2."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import shape
from ._ref.common import ALL


@register("ReverseV2", family="shape", dtypes=ALL, convert={"axis": args.ints},
          kernels={"numba": shape.reverse_v2})
def reverse_v2(input, axis):
    """Reverse the order of elements along the given axes (ops.flip).

    Arguments: input; axis (tuple of distinct axes, negative allowed).
    nn.LSTM's backward direction runs on ReverseV2'd sequences. All dtypes.
    """
    if any(not -input.ndim <= a < input.ndim for a in axis):
        raise ValueError(f"ReverseV2: axis {axis} out of range for input of "
                         f"rank {input.ndim}")
    if len({a % input.ndim for a in axis}) != len(axis):
        raise ValueError(f"ReverseV2: repeated axis in {axis}")
    return np.flip(input, axis).copy()

