"""CheckNumerics."""
import numpy as np

from refinfer.registry import register

from ._ref.common import FLOATS


@register("CheckNumerics", family="shape", dtypes=FLOATS, no_kernel="view")
def check_numerics(x):
    """Return x unchanged after checking it holds no NaN or infinity.

    y = x. MindSpore raises on a NaN or +-inf in x; so does this, naming
    how many and where the first is.
    """
    bad = ~np.isfinite(x)
    if bad.any():
        first = np.unravel_index(int(bad.argmax()), x.shape)
        raise ValueError(f"CheckNumerics: x of shape {x.shape} holds "
                         f"{int(bad.sum())} NaN or infinite value(s), the first "
                         f"{x[first]} at {tuple(int(i) for i in first)}")
    return x
