"""Cross."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS, as_result, promote

FIRST_OF_LENGTH_3 = -65530     # MindSpore's default dim: the first axis of length 3


@register("Cross", family="elementwise", dtypes=NUMBERS,
          convert={"dim": args.scalar}, no_kernel="vectorised")
def cross(input, other, dim=FIRST_OF_LENGTH_3):
    """The cross product of 3-vectors along axis dim, with broadcasting.

    y = (a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0) for a = input, b = other
    along dim. Arguments: input, other (same dtype, broadcastable, length 3
    on dim); dim=-65530 (MindSpore's "unset": the first axis of length 3).
    """
    a, b = promote(input, other)
    a, b = np.broadcast_arrays(a, b)
    dim = int(dim)
    if dim == FIRST_OF_LENGTH_3:
        dim = next((i for i, n in enumerate(a.shape) if n == 3), -1)
    if not -a.ndim <= dim < a.ndim or a.shape[dim] != 3:
        raise ValueError(f"Cross: dim {dim} must be an axis of length 3 of the "
                         f"broadcast shape {a.shape}")
    return as_result(np.cross(a, b, axis=dim))
