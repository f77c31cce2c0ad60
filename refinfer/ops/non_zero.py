"""NonZero."""
import numpy as np

from refinfer.registry import register

from ._ref.common import ALL


@register("NonZero", family="shape", dtypes=ALL)
def non_zero(input):
    """Coordinates of the non-zero elements, one row each, in C order.

    y has shape (count, rank) and dtype int64: y[k] is the index of the
    k-th non-zero element of input. Rank 0 is an error (MindSpore CPU too).
    """
    if input.ndim == 0:
        raise ValueError("NonZero: input must have rank >= 1")
    return np.argwhere(input).astype(np.int64)


# -- numba backend -------------------------------------------------------------
from refinfer.registry import register_kernel  # noqa: E402

from ._kernels import index as _fast_index  # noqa: E402


@register_kernel("NonZero", "numba")
def non_zero_numba(input):
    """NonZero as count-then-fill (``_fast_index.nonzero``); small inputs
    and rank 0 (an error) through the reference."""
    out = _fast_index.nonzero(input, by_axis=False) if input.ndim else None
    return non_zero(input) if out is None else out
