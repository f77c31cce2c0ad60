"""IndexFill."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import ALL, INTS, cast, require_dtype
from ._ref.indexing import check_take


@register("IndexFill", family="shape", dtypes=ALL,
          convert={"dim": args.scalar, "value": args.scalar}, no_kernel="copy")
def index_fill(x, dim, index, value):
    """A copy of x with the slices at index along dim set to value.

    y = x; y[..., index[i], ...] = value (index[i] on axis dim). Arguments: x;
    dim (int, negative counts from the end); index (1-D int tensor, entries
    in [-len, len), negative from the end; repeats allowed); value (scalar or
    0-d tensor, cast to x's dtype as Cast does: -1 into uint8 is 255). All
    dtypes.
    """
    require_dtype("IndexFill", "index", index, INTS)
    dim = args.integer(dim)
    axis = dim + x.ndim if dim < 0 else dim
    if not 0 <= axis < max(x.ndim, 1):
        raise ValueError(f"IndexFill: dim {dim} out of range for x of rank {x.ndim}")
    length = x.shape[axis] if x.ndim else 1
    index = np.asarray(index).reshape(-1)
    check_take("IndexFill", index, length, axis)
    out = x.copy().reshape(x.shape or (1,))
    out[(slice(None),) * axis + (index,)] = cast(np.asarray(value), x.dtype)
    return out.reshape(x.shape)
