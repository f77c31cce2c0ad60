"""LpNorm."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, as_result, compute_dtype


@register("LpNorm", family="reduction", dtypes=FLOATS,
          convert={"axis": args.ints, "p": args.scalar, "keep_dims": args.boolean},
          no_kernel="vectorised")
def lp_norm(input, axis, p=2, keep_dims=False, epsilon=1e-12):
    """The p-norm over axis: y = (sum |x| ** p) ** (1 / p).

    Arguments (classic PRIMITIVE: attributes but input): input; axis (int or
    ints); p=2 (p = 0 counts the nonzeros, p = 1 sums |x|); keep_dims=False;
    epsilon=1e-12 (for the backward pass; no effect on the value).
    """
    axis = tuple(int(a) for a in axis)
    if any(not -input.ndim <= a < max(input.ndim, 1) for a in axis):
        raise ValueError(f"LpNorm: axis {axis} out of range for input of rank "
                         f"{input.ndim}")
    x = np.abs(input.astype(compute_dtype(input.dtype)))
    p = float(p)
    if p == 0:
        out = np.count_nonzero(x, axis=axis, keepdims=keep_dims)
    else:
        out = (x ** p).sum(axis=axis, keepdims=keep_dims) ** (1 / p)
    return as_result(out, input.dtype)
