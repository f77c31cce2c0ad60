"""L2Normalize."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._kernels import norm
from ._ref.common import FLOATS, compute_dtype


@register("L2Normalize", family="nn", dtypes=FLOATS,
          convert={"axis": args.ints, "epsilon": args.scalar},
          kernels={"numba": norm.l2_normalize})
def l2_normalize(x, axis=(0,), epsilon=1e-4):
    """Scale to unit L2 norm along an axis: y = x / sqrt(max(sum(x^2), eps)).

    Arguments (classic PRIMITIVE): x; attributes axis (an int, or a list /
    tuple of one axis, negative allowed; default 0) and epsilon=1e-4
    (verified on MindSpore 2.7.1 CPU: [0.001, 0] normalises to [0.1, 0]).
    dtypes: float16 (computed in float32), float32, float64.
    """
    if len(axis) != 1:
        raise ValueError(f"L2Normalize: one axis expected, got {axis}")
    work = compute_dtype(x.dtype)
    xw = x.astype(work, copy=False)
    total = np.square(xw).sum(axis=axis[0], keepdims=True)
    return (xw / np.sqrt(np.maximum(total, work.type(epsilon)))
            ).astype(x.dtype, copy=False)
