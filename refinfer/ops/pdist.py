"""Pdist."""
import numpy as np

from refinfer import args
from refinfer.registry import register

from ._ref.common import FLOATS, compute_dtype, require_dtype


@register("Pdist", family="linalg", dtypes=FLOATS, no_kernel="vectorised",
          convert={"p": args.scalar})
def pdist(x, p=2.0):
    """The p-norm distances between every pair of rows.

    y = [||x[i] - x[j]||_p for i < j] in row-major order, N (N - 1) / 2
    values for N rows; p = 0 counts the differing features, p = inf takes
    the largest difference. Arguments (classic PRIMITIVE): x (N, M, 2-D as
    MindSpore requires); p=2.0 (attribute, >= 0). Output: x's dtype
    (float16 computed in float32).
    """
    require_dtype("Pdist", "x", x, FLOATS)
    if x.ndim != 2 or p < 0:
        raise ValueError(f"Pdist: x must be 2-D and p >= 0, got shape "
                         f"{list(x.shape)} and p={p}")
    rows, cols = np.triu_indices(x.shape[0], 1)
    xw = x.astype(compute_dtype(x.dtype), copy=False)
    diff = np.abs(xw[rows] - xw[cols])
    if p == 0:
        out = (diff != 0).sum(axis=-1)
    elif np.isinf(p):
        out = diff.max(axis=-1, initial=0)
    else:
        out = (diff ** p).sum(axis=-1) ** (1 / p)
    return out.astype(x.dtype)
