"""InplaceUpdateV2."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL, INTS, require_dtype
from ._ref.indexing import check_take


@register("InplaceUpdateV2", family="shape", dtypes=ALL, no_kernel="copy")
def inplace_update_v2(x, indices, v):
    """Copy of x with the rows at indices replaced by v.

    y = copy(x); y[indices[j]] = v[j]. Arguments: x; indices (1-D int
    tensor, entries in [-n, n), negative ones count from the end); v of
    shape (len(indices),) + x.shape[1:] (cast to x's dtype). The last of
    repeated indices wins. A 0-d indices is refused, as by MindSpore 2.7.1.
    """
    require_dtype("InplaceUpdateV2", "indices", indices, INTS)
    rows = np.asarray(indices)
    expected = rows.shape + x.shape[1:]
    if rows.ndim != 1 or x.ndim == 0 or v.shape != expected:
        raise ValueError(f"InplaceUpdateV2: indices must be 1-D and v of shape "
                         f"(len(indices),) + x.shape[1:] = {expected}; got indices "
                         f"{rows.shape}, v {v.shape}, x {x.shape}")
    check_take("InplaceUpdateV2", rows, x.shape[0], 0)
    out = x.copy()
    out[rows] = v.astype(x.dtype, copy=False)
    return out
