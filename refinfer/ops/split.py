"""Split."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL, require_tensors
from ._ref.search import one_axis


@register("Split", family="shape", dtypes=ALL,
          convert={"axis": args.scalar, "output_num": args.scalar},
          no_kernel="view")
def split(input_x, axis=0, output_num=1):
    """Split into output_num equal parts along axis; returns a tuple.

    Arguments: input_x; axis=0 (negative allowed); output_num=1, which must
    divide the axis length (MindSpore raises otherwise, and so does this).
    """
    require_tensors("Split", input_x=input_x)
    if input_x.ndim == 0:
        raise ValueError("Split: input_x must have rank >= 1, got a 0-d tensor")
    axis, count = one_axis(axis, input_x.ndim), int(output_num)
    length = input_x.shape[axis]
    if count < 1 or length % count:
        raise ValueError(f"Split: output_num {count} must divide the length "
                         f"{length} of axis {axis}")
    return tuple(np.split(input_x, count, axis=axis))
