"""ListDiff."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import NUMBERS


@register("ListDiff", family="shape", dtypes=NUMBERS, convert={"out_idx": args.dtype},
          no_kernel="native")
def list_diff(x, y, out_idx=np.dtype(np.int32)):
    """The values of x not in y, in x's order, and their positions in x.

    Returns (out, idx): out = [v for v in x if v not in y] (repeats kept),
    idx their indices in x. Arguments: x, y (1-D, one dtype); out_idx=int32
    (int32 or int64 attribute, idx's dtype). The output length depends on
    the values (a dynamic shape).
    """
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"ListDiff: x and y must be 1-D, got {x.shape} and {y.shape}")
    keep = ~np.isin(x, y)
    return x[keep], np.flatnonzero(keep).astype(out_idx)
