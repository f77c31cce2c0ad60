"""Cdist."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, as_result, compute_dtype


@register("Cdist", family="reduction", dtypes=FLOATS, convert={"p": args.scalar},
          no_kernel="vectorised")
def cdist(x1, x2, p=2.0):
    """The p-norm distance between each row of x1 and each row of x2.

    y[..., i, j] = (sum_k |x1[..., i, k] - x2[..., j, k]| ** p) ** (1 / p);
    p = 0 counts the differing k, p = inf takes the largest difference.
    Arguments: x1 (..., P, M), x2 (..., R, M) (the same leading axes, the
    same float dtype); p=2.0 (>= 0). Output (..., P, R).
    """
    p = float(p)
    if x1.ndim < 2 or x1.ndim != x2.ndim or x1.shape[-1] != x2.shape[-1] \
            or x1.shape[:-2] != x2.shape[:-2] or p < 0:
        raise ValueError(f"Cdist: x1 {x1.shape} and x2 {x2.shape} need the shapes "
                         f"(..., P, M) and (..., R, M), and p {p} must be >= 0")
    work = compute_dtype(x1.dtype)
    diff = np.abs(x1.astype(work)[..., :, None, :] - x2.astype(work)[..., None, :, :])
    if p == 0:
        out = np.count_nonzero(diff, axis=-1)
    elif np.isinf(p):
        out = diff.max(axis=-1, initial=0)
    else:
        out = (diff ** p).sum(-1) ** (1 / p)
    return as_result(out, x1.dtype)
