"""Split."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL


@register("Split", family="shape", dtypes=ALL,
          convert={"axis": args.scalar, "output_num": args.scalar},
          no_kernel="view")
def split(input_x, axis=0, output_num=1):
    """Split into output_num equal parts along axis; returns a tuple.

    Arguments: input_x; axis=0 (negative allowed); output_num=1, which must
    divide the axis length (MindSpore raises otherwise, and so does this).
    """
    return tuple(np.split(input_x, int(output_num), axis=int(axis)))
