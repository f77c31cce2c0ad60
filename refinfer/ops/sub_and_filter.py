"""SubAndFilter."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import INTS


@register("SubAndFilter", family="shape", dtypes=INTS, no_kernel="vectorised",
          convert={"max_num": args.integer, "offset": args.integer})
def sub_and_filter(input_x, max_num, offset):
    """The ids of an embedding-cache shard: input_x - offset, kept where in range.

    kept = 0 <= input_x - offset < max_num; returns (sub_res, sub_idx): the
    kept differences and their positions (int of input_x's dtype), in order.
    Arguments (classic PRIMITIVE): input_x (1-D int); max_num, offset (0-d).
    """
    if input_x.ndim != 1:
        raise ValueError(f"SubAndFilter: input_x must be 1-D, got shape "
                         f"{list(input_x.shape)}")
    shifted = input_x.astype(np.int64) - offset
    kept = np.flatnonzero((shifted >= 0) & (shifted < max_num))
    return shifted[kept].astype(input_x.dtype), kept.astype(input_x.dtype)
