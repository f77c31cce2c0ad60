"""IndexPut."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import INTS, NUMBERS, require_dtype
from ._ref.indexing import check_take


@register("IndexPut", family="shape", dtypes=NUMBERS,
          convert={"accumulate": args.scalar}, no_kernel="copy",
          sequences=("indices",))
def index_put(x1, x2, indices, accumulate=0):
    """A copy of x1 with x2 written (or added) at the points of indices.

    With indices = (i0, i1, ..., ik-1), 1-D int tensors of one length L (or
    1): y[i0[l], ..., ik-1[l], ...] = x2 (accumulate=0: the last repeat
    wins) or += x2 (accumulate=1: repeats add up). Arguments (classic
    PRIMITIVE): x1; x2 (1-D, of length 1 or x1's last axis, broadcast over
    the points; cast to x1's dtype); indices (a tuple of k <= rank int
    tensors); accumulate=0 (attribute).
    """
    indices = tuple(indices) if isinstance(indices, (tuple, list)) else (indices,)
    if not indices or len(indices) > x1.ndim:
        raise ValueError(f"IndexPut: needs 1 to {x1.ndim} index tensors for x1 of "
                         f"shape {x1.shape}, got {len(indices)}")
    for axis, index in enumerate(indices):
        require_dtype("IndexPut", f"indices[{axis}]", index, INTS)
        check_take("IndexPut", index, x1.shape[axis], axis)
    points = tuple(np.asarray(i).reshape(-1).astype(np.int64) for i in indices)
    count = max(p.size for p in points)
    for axis, p in enumerate(points):
        if p.size not in (1, count):
            raise ValueError(f"IndexPut: indices[{axis}] has {p.size} points, "
                             f"another index tensor {count}; they must have "
                             f"one length (or 1)")
    values = np.asarray(x2).astype(x1.dtype)
    target = (count, *x1.shape[len(points):])
    if not _broadcasts_to(values.shape, target):
        raise ValueError(f"IndexPut: x2 of shape {values.shape} does not "
                         f"broadcast to the {target} values written")
    out = x1.copy()
    if int(accumulate):
        np.add.at(out, points, values)
    else:
        out[points] = values
    return out


def _broadcasts_to(shape: tuple, target: tuple) -> bool:
    try:
        return np.broadcast_shapes(shape, target) == target
    except ValueError:
        return False
