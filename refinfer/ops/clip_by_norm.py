"""ClipByNorm."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, as_result, compute_dtype
from ._ref.reduce import reduce_axes


@register("ClipByNorm", family="nn", dtypes=FLOATS, convert={"axis": args.axes},
          no_kernel="vectorised")
def clip_by_norm(x, clip_norm, axis=None):
    """x scaled down where its L2 norm over axis exceeds clip_norm.

    n = sqrt(sum(x ** 2 over axis)) (kept as length-1 axes); y = x *
    clip_norm / max(n, clip_norm). Arguments: x (float); clip_norm (a
    positive number or tensor broadcastable to x); axis=None (attribute:
    every axis). Output has x's dtype (float16 computed in float32).
    MindSpore 2.7.1's CPU kernel reads the wrong elements for an axis that
    is not every axis (row i of a (3, 2) x gets the norm of x.flat[i:i+2]);
    this computes the documented norm.
    """
    work = compute_dtype(x.dtype)
    xw = x.astype(work, copy=False)
    limit = np.asarray(clip_norm).astype(work)
    norm = np.sqrt(np.square(xw).sum(axis=reduce_axes(axis, x.ndim), keepdims=True))
    return as_result(xw * limit / np.maximum(norm, limit), x.dtype)
