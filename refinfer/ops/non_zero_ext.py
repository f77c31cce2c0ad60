"""NonZeroExt."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL


@register("NonZeroExt", family="shape", dtypes=ALL)
def non_zero_ext(input):
    """Coordinates of the non-zero elements as one 1-D array per axis.

    A tuple of rank int64 arrays of length count, as np.nonzero (what
    mint.nonzero(as_tuple=True) and mint.where(cond) export). MindSpore
    2.7.1 has no CPU kernel for it.
    """
    return tuple(i.astype(np.int64) for i in np.nonzero(np.atleast_1d(input)))


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import index as _fast_index  # noqa: E402


@register_kernel("NonZeroExt", "numba")
def non_zero_ext_numba(input):
    """NonZeroExt as count-then-fill (``_fast_index.nonzero``), the rows of
    one (rank, count) array; small inputs through the reference."""
    out = _fast_index.nonzero(np.atleast_1d(input), by_axis=True)
    return non_zero_ext(input) if out is None else tuple(out)
